import { SSEParser } from "glove-core/sse";

/** What a conversation's event stream tells the page. */
export interface EventHandlers {
  /** One of glove-server's events (`text_delta`, `messages_appended`, `turn_end`…), its data parsed. */
  onEvent(type: string, data: unknown): void;
  /** The page may have missed events (a fresh stream, or a gap): read the conversation again. */
  onReset(): void;
}

const RECONNECT_MS = 1000;
const MAX_RECONNECT_MS = 15_000;

function parse(data: string): unknown {
  try {
    return JSON.parse(data);
  } catch {
    return undefined;
  }
}

/**
 * Follows `api/conversations/:id/events` (mounted studio) until stopped: reconnects after a
 * dropped connection from the last event id it saw, so nothing is missed within the server's
 * replay window; a stream that cannot resume says so and the page reads the conversation again.
 * A refusal (the principal lost access, the conversation is gone) stops it. Returns the stop.
 */
export function followEvents(conversationId: string, handlers: EventHandlers): () => void {
  const stop = new AbortController();
  let lastId: string | undefined;
  let delay = RECONNECT_MS;

  const connect = async (): Promise<void> => {
    const query = lastId === undefined ? "" : `?after=${encodeURIComponent(lastId)}`;
    const response = await fetch(`api/conversations/${encodeURIComponent(conversationId)}/events${query}`, {
      signal: stop.signal,
      headers: { accept: "text/event-stream" },
    });
    if (!response.ok || !response.body) {
      await response.body?.cancel();
      if (response.status >= 400 && response.status < 500) stop.abort();
      return;
    }
    const parser = new SSEParser((event) => {
      if (event.id !== undefined) lastId = event.id;
      delay = RECONNECT_MS;
      if (event.event === "studio_ready") {
        if ((parse(event.data) as { resumed?: boolean } | undefined)?.resumed !== true) handlers.onReset();
      } else if (event.event === "studio_gap") handlers.onReset();
      else handlers.onEvent(event.event, parse(event.data));
    });
    const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      parser.feed(value);
    }
  };

  void (async () => {
    while (!stop.signal.aborted) {
      await connect().catch(() => undefined);
      if (stop.signal.aborted) return;
      await new Promise((resolve) => setTimeout(resolve, delay));
      delay = Math.min(delay * 2, MAX_RECONNECT_MS);
    }
  })();
  return () => stop.abort();
}
