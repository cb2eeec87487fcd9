import type { ConversationHandle } from "../../conversations/conversation-handle.js";
import { AgUiEventMapper } from "./event-mapper.js";
import type { AgUiEvent } from "./events.js";
import { waitingSlots } from "./interrupts.js";
import type { PageMessage } from "./page-ids.js";
import { closingEvents, messagesSnapshot, stateOf, type RunStreamOptions } from "./run-stream.js";

export type Snapshot = Awaited<ReturnType<ConversationHandle["snapshot"]>>;

/** What a run streams, short of the conversation, its events and the run's ids. */
export type StreamPlan = Omit<RunStreamOptions, "conversation" | "native" | "threadId" | "runId" | "ids" | "page"> & {
  /** The last event id before the run's events: its stream starts after it. */
  after: number;
};

export const ids = () => crypto.randomUUID();

/**
 * A run that joins the conversation as it is (a retried message, no new message, a replayed
 * resume): the history and state, the text streaming now, then the running turn to its end; with
 * no turn running (or not the one named), or one waiting for an answer, it ends at once — as an
 * interrupt when questions wait. Its events start after the snapshot it was planned from.
 */
export function followRun(
  { data, lastId }: Snapshot,
  turnId: string | undefined,
  run: { threadId: string; runId: string; page: readonly PageMessage[] },
): StreamPlan {
  const { threadId, runId, page } = run;
  const running = data.busy === true && (turnId === undefined || data.turnId === turnId);
  // A turn that waits for a person streams nothing until answered: the run ends as that interrupt.
  if (!running || waitingSlots(data.slots).length > 0)
    return {
      turnId,
      started: true,
      prelude: [],
      finished: closingEvents(data, threadId, runId, { page }),
      after: lastId,
    };
  const mapper = new AgUiEventMapper(ids);
  const streaming = typeof data.streamingText === "string" ? data.streamingText : "";
  const prelude: AgUiEvent[] = [
    messagesSnapshot(data, { page }),
    { type: "STATE_SNAPSHOT", snapshot: stateOf(data) },
    // What streamed before this run joined, closed: the rest follows as a new message.
    ...mapper.text(streaming),
    ...mapper.close(),
  ];
  return {
    turnId: typeof data.turnId === "string" ? data.turnId : undefined,
    started: true,
    prelude,
    after: lastId,
  };
}
