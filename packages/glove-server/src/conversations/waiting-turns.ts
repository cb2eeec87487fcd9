import {
  repairForInterruptedTools,
  SlotAnswerError,
  type IGloveRunnable,
  type PendingQuestion,
  type SlotBoard,
  type StoreAdapter,
  type StoredWaitStatus,
  type SubscriberEventArgs,
  type WireSlot,
} from "glove-core";
import { badRequest, conflict, notFound } from "../errors.js";
import type { HttpError } from "../errors.js";

/**
 * The tool calls a turn is running (announced by `tool_use`, ended by `tool_use_result`), so the
 * server knows when a turn does nothing but wait for people. Subagents' calls are their own.
 */
export class RunningCalls {
  readonly #ids = new Set<string>();

  observe(...[type, data]: SubscriberEventArgs): void {
    if ((data as { agentPath?: unknown }).agentPath !== undefined) return;
    if (type === "tool_use" && data.id) this.#ids.add(data.id);
    else if (type === "tool_use_result" && data.call_id) this.#ids.delete(data.call_id);
    else if (type === "turn_resumed") this.#ids.add(data.call_id);
  }

  clear(): void {
    this.#ids.clear();
  }

  get ids(): ReadonlySet<string> {
    return this.#ids;
  }
}

/**
 * The stored questions (`glove.pendingSlots()`) that no process shows now, as clients see slots.
 * Synchronous, so a snapshot reads it in the same tick as its lastEventId.
 */
export function unshownQuestions(pending: readonly PendingQuestion[], board: SlotBoard): WireSlot[] {
  return pending.filter((question) => board.get(question.id) === undefined).map(questionSlot);
}

/** A stored question as clients see a slot: pending, waiting for an answer. */
export function questionSlot(question: PendingQuestion): WireSlot {
  return {
    id: question.id,
    renderer: question.renderer,
    input: question.input,
    toolName: question.toolName,
    toolCallId: question.toolCallId,
    displayStrategy: question.displayStrategy ?? null,
    mode: "wait",
    status: "pending",
    ...(question.origin !== undefined ? { origin: question.origin } : {}),
  };
}

/**
 * Whether the running turn only waits for people: every call it runs waits on a stored question
 * (so it can leave memory and resume from the store), and no model call is streaming.
 */
export async function onlyWaitsForPeople(
  glove: IGloveRunnable,
  board: SlotBoard,
  calls: RunningCalls,
  streaming: boolean,
): Promise<boolean> {
  if (streaming || calls.ids.size === 0 || !glove.pendingSlots) return false;
  const stored = new Set((await glove.pendingSlots()).map((question) => question.id));
  const waiting = new Set(
    board
      .list()
      .filter((slot) => slot.mode === "wait" && slot.status === "pending" && stored.has(slot.id))
      // A subagent's question holds this agent's call that runs the subagent.
      .map((slot) => slot.origin?.subagentCallId ?? slot.toolCallId),
  );
  return [...calls.ids].every((id) => waiting.has(id));
}

/**
 * A new message (or a regenerate, an edit, a branch switch) while a question waits is refused
 * with one code, whether the asking turn is in memory (its question on the board) or left it
 * (the question stored): the client's next step is the same, answer it or abort the turn.
 */
export async function refuseWhileWaiting(
  glove: IGloveRunnable,
  board: SlotBoard,
  turnInMemory: boolean,
): Promise<void> {
  const shown = board.list().filter((slot) => slot.mode === "wait" && slot.status === "pending");
  if (shown.length > 0) throw waitingConflict(shown);
  // A turn in memory shows its questions; only one that left memory needs the store read.
  const waiting = turnInMemory ? [] : ((await glove.pendingSlots?.()) ?? []);
  if (waiting.length > 0) throw waitingConflict(waiting);
}

/** The 409 for a new message while questions wait. */
export function waitingConflict(waiting: ReadonlyArray<{ id: string; toolName: string | null }>): HttpError {
  const named = waiting.map((q) => `slot ${q.id}${q.toolName === null ? "" : ` (${q.toolName})`}`);
  return conflict(
    "GLOVE_WAITING_FOR_ANSWER",
    `The turn waits for an answer to ${named.join(", ")}. Answer it (POST …/slots/:slotId), or abort the turn (POST …/abort).`,
  );
}

/**
 * How a question of this conversation was settled, read from the store's record of its wait
 * (stores that keep waits keep settled ones): "resolved", "rejected" or "cancelled"; undefined
 * for a question never asked here (or asked inside a subagent), one still waiting, or a store
 * that keeps no waits. It outlives the process, unlike the slot board.
 */
export async function settledQuestion(
  store: StoreAdapter,
  slotId: string,
): Promise<Exclude<StoredWaitStatus, "pending"> | undefined> {
  const wait = (await store.getWaits?.())?.find((w) => w.id === slotId && w.kind === "question");
  return wait === undefined || wait.status === "pending" ? undefined : wait.status;
}

/**
 * Aborts a turn that left memory waiting for people: its questions are cancelled in the store
 * and its unanswered calls end as aborted. Returns the withdrawn slot ids.
 */
export async function withdrawWaiting(glove: IGloveRunnable, store: StoreAdapter): Promise<string[]> {
  const waiting = (await glove.pendingSlots?.()) ?? [];
  if (waiting.length === 0 || !store.settleWait) return [];
  const settled_at = new Date().toISOString();
  for (const question of waiting)
    await store.settleWait(question.id, { status: "cancelled", value: "the turn was aborted", settled_at });
  const repair = repairForInterruptedTools(await store.getMessages(), []);
  if (repair) await store.appendMessages([repair]);
  return waiting.map((question) => question.id);
}

/** The HTTP answer to an answer glove-core refused. */
export function refusalToHttp(error: unknown): unknown {
  if (!SlotAnswerError.isInstance(error)) return error;
  const refusals: Record<SlotAnswerError["reason"], () => HttpError> = {
    unknown_slot: () => notFound(`No slot waits for an answer under this id in this conversation. ${error.message}`),
    already_answered: () => conflict("GLOVE_SLOT_SETTLED", error.message),
    call_answered: () => conflict("GLOVE_SLOT_SETTLED", error.message),
    invalid: () => badRequest(`${error.message}`, error.issues),
  };
  return refusals[error.reason]();
}
