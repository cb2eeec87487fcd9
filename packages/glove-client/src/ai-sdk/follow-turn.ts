import type { UIMessageChunk } from "ai";
import type { ChunkMapper } from "./chunk-mapper.js";
import type { EventFeed } from "./event-feed.js";
import { replyInProgress } from "./history.js";

/** Which turn a response follows: its id when known (else the next turn that starts), and whether it runs already. */
export interface TurnTarget {
  turnId: string | undefined;
  /** The feed is inside the turn already (its turn_start came before the feed opened). */
  running: boolean;
}

/**
 * Questions the page has not seen yet that wait in the same turn (two gated calls run at once):
 * shown, and the response paused, once the calls just answered have their results.
 */
export interface HeldQuestions {
  /** Tool calls answered by this request, still running. */
  calls: Set<string>;
  /** The chunks that show the waiting questions (and end the response), built when released. */
  release(): UIMessageChunk[];
}

/**
 * The response useChat reads: `prelude` (chunks already known, e.g. a replay), then the followed
 * turn's events as chunks until it ends or pauses for a person. The feed closes with the stream,
 * also when the reader cancels it; a closed feed (the page stopped) ends the stream quietly.
 */
export function followTurn(
  feed: EventFeed,
  mapper: ChunkMapper,
  target: TurnTarget,
  prelude: readonly UIMessageChunk[] = [],
  held?: HeldQuestions,
): ReadableStream<UIMessageChunk> {
  let turnId = target.turnId;
  let started = target.running;
  let cancelled = false;
  return new ReadableStream<UIMessageChunk>({
    start(controller) {
      const pump = async () => {
        for (const chunk of prelude) controller.enqueue(chunk);
        const released = () => {
          if (!held || held.calls.size > 0) return false;
          for (const chunk of held.release()) controller.enqueue(chunk);
          return true;
        };
        if (released()) return;
        for (;;) {
          const event = await feed.next();
          if (!event) return;
          if (!started) {
            if (event.type === "turn_start" && (turnId === undefined || event.turnId === turnId)) {
              turnId = event.turnId;
              started = true;
            }
            continue;
          }
          if (event.type === "turn_start" || (event.type === "turn_end" && event.turnId !== turnId)) continue;
          if (event.type === "snapshot") {
            // The stream started over (the reader fell behind, or the server restarted): the turn may be over.
            if (replyInProgress(event.snapshot)) continue;
            for (const chunk of mapper.end("done")) controller.enqueue(chunk);
            return;
          }
          const { chunks, paused } = mapper.event(event);
          for (const chunk of chunks) controller.enqueue(chunk);
          if (paused || event.type === "turn_end") return;
          if (event.type === "tool_use_result" && event.call_id !== undefined) held?.calls.delete(event.call_id);
          if (released()) return;
        }
      };
      pump().then(
        () => {
          feed.close();
          if (!cancelled) controller.close();
        },
        (error: unknown) => {
          feed.close();
          if (!cancelled) controller.error(error);
        },
      );
    },
    cancel() {
      cancelled = true;
      feed.close();
    },
  });
}

/** A response with nothing more to come (the chunks given, then the end). */
export function finishedStream(chunks: readonly UIMessageChunk[]): ReadableStream<UIMessageChunk> {
  return new ReadableStream<UIMessageChunk>({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(chunk);
      controller.close();
    },
  });
}
