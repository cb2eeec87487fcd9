import type { SseSource } from "../http/sse-response.js";
import type { EventLog } from "./event-log.js";

export interface EventStreamOptions {
  log: EventLog;
  /** The last id the client saw (Last-Event-ID / ?after=), or undefined for a fresh stream. */
  after: number | undefined;
  /** A `snapshot` frame and the id it stands for, for fresh streams and readers that fell behind. */
  snapshot: () => Promise<{ frame: string; lastId: number }>;
  heartbeatMs: number;
  /** Reconnect delay suggested to EventSource clients. */
  retryMs: number;
  onClose: () => void;
}

/**
 * One client's view of a conversation's events: a snapshot when it has no usable position, then
 * every event after its position, with heartbeat comments while nothing happens.
 */
export function eventStream(options: EventStreamOptions): SseSource {
  const { log } = options;
  let cursor = options.after;
  let needsSnapshot = cursor === undefined || !log.canResumeAfter(cursor);
  let preamble = `retry: ${options.retryMs}\n\n`;
  let ended = false;
  const end = () => {
    if (ended) return;
    ended = true;
    options.onClose();
  };
  return {
    async read() {
      const out = preamble;
      preamble = "";
      for (;;) {
        if (ended) return undefined;
        if (needsSnapshot || cursor === undefined) {
          const { frame, lastId } = await options.snapshot();
          needsSnapshot = false;
          cursor = lastId;
          return out + frame;
        }
        const result = log.readAfter(cursor);
        if (result.kind === "closed") {
          end();
          return out === "" ? undefined : out;
        }
        if (result.kind === "gap") {
          needsSnapshot = true;
          continue;
        }
        if (result.text !== "") {
          cursor = result.lastId;
          return out + result.text;
        }
        if (out !== "") return out;
        const before = cursor;
        await log.waitAfter(before, options.heartbeatMs);
        if (log.lastId === before && !log.closed && !ended) return ": heartbeat\n\n";
      }
    },
    cancel: end,
  };
}
