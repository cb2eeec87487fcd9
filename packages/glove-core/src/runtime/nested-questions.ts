import type {
  Message,
  PendingQuestion,
  StoreAdapter,
  StoredAnswer,
  StoredWait,
  Tool,
  ToolCall,
} from "../types/index.js";
import { SUBAGENT_DISPATCH_TOOL_NAME } from "../constants.js";
import { unansweredToolCalls } from "../stores/message-integrity.js";
import { storeKeepsWaits, type WaitStore } from "./call-waits.js";

/*
 * Questions asked inside subagents (docs/decisions/0023). A durable subagent call records, as its
 * first step, the durable sub-store its child runs on (the link); the child's questions are stored
 * there, its own subagents' below that. Following the links of a conversation's unanswered
 * subagent calls reaches every question still waiting under it, however deep.
 */

/** The step name of a subagent call's link. */
export const SUBAGENT_LINK_STEP = "glove:subagent_store";

/** A link: the subagent, its durable sub-store's namespace, and that store's message count before the call. */
export interface SubagentLink {
  name: string;
  namespace: string;
  from: number;
}

/**
 * The answer a parent's subagent call passes to `child.resolveSlot` to resume the child's turn:
 * nothing is recorded (the parent recorded the answer where the question lives), the child's
 * calls with stored waits run again. A symbol, so no answer from outside can be mistaken for it.
 */
export const RESUME_ONLY: unique symbol = Symbol("glove.resumeOnly");

/** Records an answer in the store the question lives in (stored-questions.ts's `recordAnswer`). */
export type RecordAnswer = (
  store: WaitStore,
  history: readonly Message[],
  tools: Tool<unknown>[],
  slotId: string,
  answer: StoredAnswer,
) => Promise<StoredWait>;

/** A subagent's store, reached through `via`, an unanswered subagent call of the store above. */
interface SubagentStore {
  name: string;
  via: string;
  store: WaitStore;
  history: readonly Message[];
}

/** The messages `unansweredToolCalls` needs: those since the last compaction. */
export async function currentMessages(store: StoreAdapter): Promise<Message[]> {
  return store.getMessagesSinceLastCompaction ? store.getMessagesSinceLastCompaction() : store.getMessages();
}

/** The durable sub-stores linked from the unanswered subagent calls of `history`, one level down. */
async function subagentStores(store: WaitStore, history: readonly Message[]): Promise<SubagentStore[]> {
  const found: SubagentStore[] = [];
  for (const call of unansweredToolCalls(history)) {
    if (call.tool_name !== SUBAGENT_DISPATCH_TOOL_NAME || !call.id) continue;
    const link = (await store.getWaits({ toolCallId: call.id })).find(
      (w) => w.kind === "step" && w.renderer === SUBAGENT_LINK_STEP,
    )?.value;
    if (!isLink(link)) continue;
    const sub = await store.createSubAgentStore?.(link.namespace, { durable: true });
    if (!storeKeepsWaits(sub) || sub.identifier === store.identifier) continue;
    found.push({ name: link.name, via: call.id, store: sub, history: await currentMessages(sub) });
  }
  return found;
}

/**
 * The questions still waiting in the subagents below `history`'s unanswered calls, each with its
 * origin. `list` lists one store's questions (and, recursing through here, those below it).
 */
export async function subagentQuestions(
  store: WaitStore,
  history: readonly Message[],
  list: (store: WaitStore, history: readonly Message[]) => Promise<PendingQuestion[]>,
): Promise<PendingQuestion[]> {
  const questions: PendingQuestion[] = [];
  for (const sub of await subagentStores(store, history)) {
    for (const question of await list(sub.store, sub.history)) {
      const inner = question.origin ?? {
        agentPath: [],
        toolName: question.toolName,
        input: callOf(sub.history, question.toolCallId)?.input_args,
      };
      questions.push({
        ...question,
        origin: { ...inner, agentPath: [sub.name, ...inner.agentPath], subagentCallId: sub.via },
      });
    }
  }
  return questions;
}

/**
 * Answers a question that lives in a subagent's store: recorded there (the first answer wins; the
 * child's tools are not known here, so their resolveSchema is not applied), or nothing recorded for
 * RESUME_ONLY. Returns the wait as this conversation sees it — under the subagent call leading to
 * it — or undefined when the question is this conversation's own to record, or unknown.
 */
export async function answerBelow(
  store: WaitStore,
  history: readonly Message[],
  slotId: string,
  answer: StoredAnswer,
  record: RecordAnswer,
): Promise<StoredWait | undefined> {
  const found = await locate(store, history, slotId, undefined);
  const resumeOnly = "resolve" in answer && answer.resolve === RESUME_ONLY;
  if (!found || (found.via === undefined && !resumeOnly)) return undefined;
  const wait = resumeOnly ? found.wait : await record(found.store, found.history, [], slotId, answer);
  return found.via === undefined ? wait : { ...wait, toolCallId: found.via, toolName: SUBAGENT_DISPATCH_TOOL_NAME };
}

/**
 * A question to resume a child's turn by (its id for `resolveSlot(id, RESUME_ONLY)`): one whose call
 * is unanswered, in the child's store or below, not shown live; the latest answered first.
 */
export async function questionToResume(
  store: WaitStore,
  history: readonly Message[],
  live: (slotId: string) => boolean,
): Promise<string | undefined> {
  const candidates = (await openQuestions(store, history)).filter((wait) => !live(wait.id));
  const answered = candidates
    .filter((wait) => wait.status !== "pending")
    .sort((a, b) => (b.settled_at ?? "").localeCompare(a.settled_at ?? ""));
  return (answered[0] ?? candidates[0])?.id;
}

/** The unanswered subagent calls of `history` below which a stored question still waits. */
export async function subagentCallsWaiting(store: WaitStore, history: readonly Message[]): Promise<string[]> {
  const waiting: string[] = [];
  for (const sub of await subagentStores(store, history)) {
    if ((await openQuestions(sub.store, sub.history)).some((wait) => wait.status === "pending")) waiting.push(sub.via);
  }
  return waiting;
}

async function openQuestions(store: WaitStore, history: readonly Message[]): Promise<StoredWait[]> {
  const open = new Set(unansweredToolCalls(history).map((call) => call.id));
  const own = (await store.getWaits()).filter((wait) => wait.kind === "question" && open.has(wait.toolCallId));
  const below: StoredWait[] = [];
  for (const sub of await subagentStores(store, history)) below.push(...(await openQuestions(sub.store, sub.history)));
  return [...own, ...below];
}

async function locate(
  store: WaitStore,
  history: readonly Message[],
  slotId: string,
  via: string | undefined,
): Promise<{ store: WaitStore; history: readonly Message[]; wait: StoredWait; via: string | undefined } | undefined> {
  const wait = (await store.getWaits()).find((w) => w.id === slotId && w.kind === "question");
  if (wait) return { store, history, wait, via };
  for (const sub of await subagentStores(store, history)) {
    const found = await locate(sub.store, sub.history, slotId, via ?? sub.via);
    if (found) return found;
  }
  return undefined;
}

function callOf(history: readonly Message[], callId: string): ToolCall | undefined {
  return unansweredToolCalls(history).find((call) => call.id === callId);
}

function isLink(value: unknown): value is SubagentLink {
  if (typeof value !== "object" || value === null) return false;
  const link = value as Record<string, unknown>;
  return typeof link.name === "string" && typeof link.namespace === "string" && typeof link.from === "number";
}
