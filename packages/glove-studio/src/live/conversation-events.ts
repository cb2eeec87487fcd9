import type { ConversationHandle } from "glove-server";
import { SECURITY_HEADERS } from "../http/responses.js";

/** How often a quiet stream says it is alive (proxies and the server's idle timeout close silent sockets). */
const HEARTBEAT_MS = 15_000;
const RETRY_MS = 1_000;

/**
 * A conversation's live events for the mounted studio: the frames glove-server's own
 * `GET /conversations/:id/events` sends (ids, `event:` types and data as they are), read from the
 * conversation's event log on behalf of a principal `allow` admitted — the server's route serves
 * the owner only. There is no snapshot frame: the page reads the conversation through the JSON
 * API, and is told `studio_ready { resumed }` when the stream starts and `studio_gap` when events
 * it missed are gone, so it reads it again.
 */
export function conversationEvents(handle: ConversationHandle, after: number | undefined): Response {
  const log = handle.log;
  const resumed = after !== undefined && log.canResumeAfter(after);
  let cursor = resumed ? after : log.lastId;
  const place = log.attach(cursor);
  handle.subscribers++;
  let ended = false;
  let waiting: Promise<void> | undefined;
  let waitingFor = -1;
  let first = `retry: ${RETRY_MS}\n\nid: ${cursor}\nevent: studio_ready\ndata: ${JSON.stringify({ resumed })}\n\n`;
  const end = () => {
    if (ended) return;
    ended = true;
    place.detach();
    handle.subscribers--;
    handle.lastActive = Date.now();
  };

  /** The next text to send: what the log holds after the cursor, a gap notice, a heartbeat, or undefined at the end. */
  async function next(): Promise<string | undefined> {
    if (first) {
      const text = first;
      first = "";
      return text;
    }
    for (;;) {
      if (ended) return undefined;
      const result = log.readAfter(cursor);
      if (result.kind === "closed") return undefined;
      if (result.kind === "gap") {
        cursor = place.position = log.lastId;
        return `id: ${cursor}\nevent: studio_gap\ndata: {}\n\n`;
      }
      if (result.text !== "") {
        cursor = place.position = result.lastId;
        return result.text;
      }
      const before = cursor;
      // One wait per position, however many heartbeats pass: the log keeps each waiter until an event.
      if (waitingFor !== before || !waiting) {
        waitingFor = before;
        waiting = log.waitAfter(before);
      }
      let timer: ReturnType<typeof setTimeout> | undefined;
      const beat = await Promise.race([
        waiting.then(() => false),
        new Promise<boolean>((wake) => (timer = setTimeout(() => wake(true), HEARTBEAT_MS))),
      ]);
      clearTimeout(timer);
      if (beat && log.lastId === before && !log.closed) return ": heartbeat\n\n";
    }
  }

  const encoder = new TextEncoder();
  const body = new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        const text = await next();
        if (text === undefined) {
          end();
          controller.close();
        } else controller.enqueue(encoder.encode(text));
      },
      cancel: end,
    },
    { highWaterMark: 0 },
  );
  return new Response(body, {
    headers: {
      ...SECURITY_HEADERS,
      "content-type": "text/event-stream; charset=utf-8",
      "cache-control": "no-cache, no-transform",
      "x-accel-buffering": "no",
    },
  });
}
