import {
  callsToRerun,
  pendingQuestions,
  storeKeepsWaits,
  unansweredToolCalls,
  type IGloveRunnable,
  type Message,
  type SlotBoard,
  type StoreAdapter,
  type SubscriberEventArgs,
  type Tool,
} from "glove-core";
import { onlyWaitsForPeople, RunningCalls } from "../../conversations/waiting-turns.js";

/**
 * What a worker knows of its turn to tell whether it only waits for people (durable questions):
 * the calls it runs (announced by the model, or run again to continue the turn), whether a model
 * call is streaming, and when the turn last did something.
 */
export class PeopleWaits {
  readonly #calls = new RunningCalls();
  #streaming = false;
  lastActive = Date.now();

  observe(...event: SubscriberEventArgs): void {
    const [type] = event;
    this.#calls.observe(...event);
    if (type === "text_delta") this.#streaming = true;
    else if (type === "model_response_complete" || type === "model_response") this.#streaming = false;
    this.lastActive = Date.now();
  }

  /** Calls that run again to continue the turn (they announce no `tool_use`). */
  resumed(callIds: Iterable<string>): void {
    for (const id of callIds) this.#calls.observe("turn_resumed", { slot_id: "", call_id: id, tool_name: "" });
  }

  /** True when every call the turn runs waits on a stored question shown on `board`, and no model call streams. */
  async only(glove: IGloveRunnable, board: SlotBoard): Promise<boolean> {
    if (!board.list().some((slot) => slot.mode === "wait" && slot.status === "pending")) return false;
    return onlyWaitsForPeople(glove, board, this.#calls, this.#streaming);
  }
}

/** Whether the stored turn waits on questions nobody answered yet (its calls are not answered either). */
export async function waitsOnStoredQuestions(store: StoreAdapter, history: readonly Message[]): Promise<boolean> {
  return storeKeepsWaits(store) && (await pendingQuestions(store, history)).length > 0;
}

/**
 * The calls `continueTurn` runs again: those glove-core reruns for their answered questions
 * (`callsToRerun`) and those whose tool may be re-run (`rerunOnRecovery`). Every unanswered call
 * when the tools are unknown (counted as running).
 */
export async function rerunCallIds(
  store: StoreAdapter,
  history: readonly Message[],
  tools: Tool<unknown>[] | undefined,
): Promise<string[]> {
  const open = unansweredToolCalls(history).flatMap((call) => (call.id ? [{ id: call.id, tool: call.tool_name }] : []));
  if (!tools) return open.map((call) => call.id);
  const answered = storeKeepsWaits(store)
    ? await callsToRerun(tools, store, history, { answeredOnly: true })
    : new Set<string>();
  return open
    .filter((call) => answered.has(call.id) || tools.find((tool) => tool.name === call.tool)?.rerunOnRecovery === true)
    .map((call) => call.id);
}

/**
 * The tools of a glove-core Glove (their answer schemas and recovery flags), read through its
 * public `internals`; undefined for another IGloveRunnable.
 */
export function toolsOf(glove: IGloveRunnable): Tool<unknown>[] | undefined {
  try {
    const tools = (glove as { internals?: { executor?: { tools?: unknown } } }).internals?.executor?.tools;
    return Array.isArray(tools) ? (tools as Tool<unknown>[]) : undefined;
  } catch {
    return undefined; // not built
  }
}
