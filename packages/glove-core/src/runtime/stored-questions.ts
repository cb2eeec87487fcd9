import type {
  DisplayManagerAdapter,
  Message,
  ModelPromptResult,
  PendingQuestion,
  SlotAnswerRefusal,
  StoredAnswer,
  StoredWait,
  Tool,
} from "../types/index.js";
import { GloveError } from "../errors.js";
import { unansweredToolCalls } from "../stores/message-integrity.js";
import type { Agent } from "./agent.js";
import type { WaitStore } from "./call-waits.js";
import { answerBelow, subagentCallsWaiting, subagentQuestions } from "./nested-questions.js";
import { resumeTurn } from "./resume-turn.js";
import { PERMISSION_REQUEST_RENDERER } from "../constants.js";

/** An answer `resolveSlot` could not take. `reason` says why; nothing was recorded. */
export class SlotAnswerError extends GloveError {
  readonly reason: SlotAnswerRefusal;
  readonly slotId: string;
  readonly issues: Array<{ path: string; message: string }>;

  constructor(
    slotId: string,
    reason: SlotAnswerRefusal,
    message: string,
    issues: Array<{ path: string; message: string }> = [],
  ) {
    super(message, { code: "GLOVE_SLOT_ANSWER_REFUSED" });
    this.name = "SlotAnswerError";
    this.slotId = slotId;
    this.reason = reason;
    this.issues = issues;
  }

  static override isInstance(error: unknown): error is SlotAnswerError {
    return (
      typeof error === "object" && error !== null && (error as { code?: unknown }).code === "GLOVE_SLOT_ANSWER_REFUSED"
    );
  }
}

/**
 * The stored questions still waiting: pending, and their call not answered in the history; then
 * those of the subagents below the unanswered subagent calls (with their origin).
 */
export async function pendingQuestions(store: WaitStore, history: readonly Message[]): Promise<PendingQuestion[]> {
  const open = new Set(unansweredCallIds(history));
  // Every question, own or a subagent's, waits under an unanswered call: with none, nothing to read
  // (a server asks this before every message).
  if (open.size === 0) return [];
  const waits = await store.getWaits({ status: "pending" });
  const own = waits
    .filter((wait) => wait.kind === "question" && open.has(wait.toolCallId))
    .map((wait) => ({
      id: wait.id,
      renderer: wait.renderer,
      input: wait.input,
      toolCallId: wait.toolCallId,
      toolName: wait.toolName,
      ...(wait.displayStrategy !== undefined ? { displayStrategy: wait.displayStrategy } : {}),
      created_at: wait.created_at,
    }));
  return [...own, ...(await subagentQuestions(store, history, pendingQuestions))];
}

/**
 * Answers a question this process shows, as its UI would: returns false when it shows none under
 * `slotId` (then the question may be a stored one). An invalid answer is refused, still waiting.
 */
export function answerShown(display: DisplayManagerAdapter, slotId: string, answer: StoredAnswer): boolean {
  if (!display.resolverStore.has(slotId)) return false;
  if ("reject" in answer) {
    display.reject(slotId, answer.reject);
    return true;
  }
  const check = display.checkAnswer?.(slotId, answer.resolve);
  if (check && !check.ok) {
    throw new SlotAnswerError(
      slotId,
      check.reason === "invalid" ? "invalid" : "unknown_slot",
      check.message,
      check.reason === "invalid" ? check.issues : [],
    );
  }
  // The raw value: the manager parses it on resolve (a transforming schema must run once).
  display.resolve(slotId, answer.resolve);
  return true;
}

/**
 * Records the answer to a stored question whose call no process is running: checks it against the
 * tool's schema first, then settles it in the store (the first answer wins). Returns the wait.
 */
export async function recordAnswer(
  store: WaitStore,
  history: readonly Message[],
  tools: Tool<unknown>[],
  slotId: string,
  answer: StoredAnswer,
): Promise<StoredWait> {
  const wait = (await store.getWaits()).find((w) => w.id === slotId && w.kind === "question");
  if (!wait)
    throw new SlotAnswerError(
      slotId,
      "unknown_slot",
      `No stored question "${slotId}" in this conversation. List them with glove.pendingSlots().`,
    );
  if (wait.status !== "pending") {
    throw new SlotAnswerError(
      slotId,
      "already_answered",
      `Question ${slotId} was already ${wait.status}; the first answer won.`,
    );
  }
  if (!unansweredCallIds(history).includes(wait.toolCallId)) {
    await store.settleWait(slotId, {
      status: "cancelled",
      value: "the call was answered without it",
      settled_at: new Date().toISOString(),
    });
    throw new SlotAnswerError(
      slotId,
      "call_answered",
      `Question ${slotId} no longer waits: its tool call ${wait.toolCallId} ended without it (aborted or interrupted).`,
    );
  }
  if ("reject" in answer) return settleFirst(store, slotId, { status: "rejected", value: answer.reject ?? null });
  const schema =
    wait.renderer === PERMISSION_REQUEST_RENDERER
      ? undefined
      : tools.find((tool) => tool.name === wait.toolName)?.resolveSchema;
  let value = answer.resolve;
  if (schema) {
    const parsed = schema.safeParse(value);
    if (!parsed.success) {
      const issues = parsed.error.issues.map((issue) => ({
        path: issue.path.map(String).join(".") || "(root)",
        message: issue.message,
      }));
      throw new SlotAnswerError(
        slotId,
        "invalid",
        `The answer for question ${slotId} ("${wait.toolName}") is invalid: ${issues.map((i) => `${i.path}: ${i.message}`).join("; ")}. It still waits; send a valid answer.`,
        issues,
      );
    }
    value = parsed.data;
  }
  return settleFirst(store, slotId, { status: "resolved", value: value === undefined ? null : value });
}

/**
 * Records the answer to a stored question of this conversation, or of a subagent below one of its
 * unanswered calls (then in the subagent's store, where it was asked; the child's tools are not
 * known here, so their resolveSchema is not applied). Returns the wait as this conversation sees it:
 * a subagent's question under the subagent call leading to it. Refuses like `recordAnswer`.
 */
export async function recordStoredAnswer(
  store: WaitStore,
  history: readonly Message[],
  tools: Tool<unknown>[],
  slotId: string,
  answer: StoredAnswer,
): Promise<StoredWait> {
  return (
    (await answerBelow(store, history, slotId, answer, recordAnswer)) ??
    (await recordAnswer(store, history, tools, slotId, answer))
  );
}

async function settleFirst(
  store: WaitStore,
  slotId: string,
  outcome: { status: "resolved" | "rejected"; value: unknown },
): Promise<StoredWait> {
  const { won, wait } = await store.settleWait(slotId, { ...outcome, settled_at: new Date().toISOString() });
  if (!won || !wait)
    throw new SlotAnswerError(
      slotId,
      "already_answered",
      `Question ${slotId} was already ${wait?.status ?? "closed"}; the first answer won.`,
    );
  return wait;
}

/**
 * Answers a stored question whose call no process is running, and resumes its turn here: the
 * calls that kept their waits run again (meeting the recorded answers by position), the others are
 * answered as interrupted, and the loop goes on.
 */
export async function answerAndResume(
  agent: Agent,
  store: WaitStore,
  slotId: string,
  answer: StoredAnswer,
  signal?: AbortSignal,
): Promise<ModelPromptResult> {
  const history = await agent.context.modelView();
  // A subagent's question is recorded in its store; this turn resumes through the subagent call.
  const wait = await recordStoredAnswer(store, history, agent.executor.tools, slotId, answer);
  const rerun = await callsToRerun(agent.executor.tools, store, history, { answeredOnly: false });
  await agent.executor.bus.emit("turn_resumed", {
    slot_id: slotId,
    call_id: wait.toolCallId,
    tool_name: wait.toolName,
  });
  return resumeTurn(agent, signal, undefined, rerun);
}

/**
 * The calls of the current turn, still without a result, that run again to resume it: calls of
 * durable tools with stored waits. `answeredOnly` keeps those none of whose questions still waits
 * (`continueTurn`: the person answered, and the process died before the call finished; without
 * this the answer would be lost and the call answered as interrupted).
 */
export async function callsToRerun(
  tools: readonly Tool<unknown>[],
  store: WaitStore,
  history: readonly Message[],
  options: { answeredOnly: boolean },
): Promise<Set<string>> {
  const open = new Set(unansweredCallIds(history));
  const durable = (name: string) => tools.find((tool) => tool.name === name)?.durable !== false;
  const waits = (await store.getWaits()).filter((w) => open.has(w.toolCallId) && durable(w.toolName));
  const waiting = new Set(
    waits.filter((w) => w.status === "pending" && w.kind === "question").map((w) => w.toolCallId),
  );
  // A subagent call waits while a question below it does (nested-questions.ts).
  if (options.answeredOnly) for (const id of await subagentCallsWaiting(store, history)) waiting.add(id);
  return new Set(waits.map((w) => w.toolCallId).filter((id) => !options.answeredOnly || !waiting.has(id)));
}

function unansweredCallIds(history: readonly Message[]): string[] {
  return unansweredToolCalls(history).flatMap((call) => (call.id ? [call.id] : []));
}
