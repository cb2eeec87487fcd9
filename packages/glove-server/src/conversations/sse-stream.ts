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
 * every event after its position, with heartbeat comments while nothing happens. A woken reader
 * lets the current burst of events finish (one macrotask) before reading, so a burst leaves in
 * one write instead of one write per event.
 */
export function eventStream(options: EventStreamOptions): SseSource {
  const { log } = options;
  let cursor = options.after;
  let needsSnapshot = cursor === undefined || !log.canResumeAfter(cursor);
  // Holds the frames this reader has not read yet, so a large event cannot push it out of the window.
  const place = log.attach(needsSnapshot ? undefined : cursor);
  let preamble = `retry: ${options.retryMs}\n\n`;
  let ended = false;
  const heartbeat = new Heartbeat(options.heartbeatMs);
  const end = () => {
    if (ended) return;
    ended = true;
    place.detach();
    heartbeat.stop();
    options.onClose();
  };
  return {
    async read() {
      const out = preamble;
      preamble = "";
      for (;;) {
        if (ended) return undefined;
        if (needsSnapshot || cursor === undefined) {
          // Hold what is appended while the snapshot is read: the stream continues right after it.
          place.position = log.lastId;
          const { frame, lastId } = await options.snapshot();
          needsSnapshot = false;
          cursor = place.position = lastId;
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
          cursor = place.position = result.lastId;
          heartbeat.due = false;
          return out + result.text;
        }
        if (out !== "") return out;
        const before = cursor;
        // One promise settled by whichever comes first: an event after `before`, or the heartbeat.
        await new Promise<void>((wake) => {
          heartbeat.onTick(wake);
          log.whenAfter(before, wake);
        });
        if (log.lastId === before && !log.closed) {
          if (ended) return undefined;
          if (heartbeat.due) {
            heartbeat.due = false;
            return ": heartbeat\n\n";
          }
          continue;
        }
        await new Promise((resolve) => setImmediate(resolve));
      }
    },
    cancel: end,
  };
}

/** One interval per stream (not a timer per wait): marks a heartbeat due and wakes the reader. */
class Heartbeat {
  due = false;
  #wake: (() => void) | undefined;
  readonly #timer: ReturnType<typeof setInterval>;

  constructor(ms: number) {
    this.#timer = setInterval(() => {
      this.due = true;
      this.#wake?.();
      this.#wake = undefined;
    }, ms);
    this.#timer.unref?.();
  }

  /** Calls `wake` at the next tick of the interval (or when the stream stops), instead of an earlier one. */
  onTick(wake: () => void): void {
    this.#wake = wake;
  }

  stop(): void {
    clearInterval(this.#timer);
    this.#wake?.();
    this.#wake = undefined;
  }
}
