import {
  pendingQuestions,
  recordStoredAnswer,
  repairForInterruptedTools,
  storeKeepsWaits,
  SUBAGENT_DISPATCH_TOOL_NAME,
  type Message,
  type PendingQuestion,
  type StoreAdapter,
  type WireSlot,
} from "glove-core";
import type { SlotAnswer } from "../../conversations/conversation-handle.js";
import { questionSlot, refusalToHttp } from "../../conversations/waiting-turns.js";
import { conflict, HttpError, notFound, quoted } from "../../errors.js";
import type { ConversationRecord } from "../../storage/types.js";
import { toolsOf } from "./people-waits.js";
import { jobOptions, type ScaleShared } from "./scale-shared.js";
import { TurnEmitter } from "./turn-emitter.js";

/**
 * Stored questions (durable human-in-the-loop) of a conversation whose turn left every worker
 * (it ended "waiting"), as clients see slots. Read from the store and the history: no Glove.
 */
export async function storedSlots(store: StoreAdapter, history: readonly Message[]): Promise<WireSlot[]> {
  if (!storeKeepsWaits(store)) return [];
  return (await pendingQuestions(store, history)).map(questionSlot);
}

/** What answering a stored question needs from the conversation it belongs to. */
export interface StoredAnswerContext {
  shared: ScaleShared;
  record: ConversationRecord;
  store: StoreAdapter;
  /** Claims the conversation for a turn (as a message would): the function that gives the claim back, or undefined when a turn holds it. */
  claim(turnId: string): Promise<(() => Promise<unknown>) | undefined>;
}

/**
 * Answers a stored question whose turn waits in the store, on whichever instance the answer
 * reached: the conversation is claimed like a new turn, the answer checked against the tool's
 * schema (400, the question keeps waiting) and recorded with `settleWait` (the first answer wins
 * across instances: 409 after), then an "answer" job resumes the turn wherever it lands. While
 * other questions of the turn still wait, the answer is only recorded: the last one resumes it.
 * A subagent's question is recorded in the subagent's store; its turn resumes through the call
 * that runs the subagent.
 */
export async function answerStoredQuestion(
  context: StoredAnswerContext,
  slotId: string,
  answer: SlotAnswer,
): Promise<{ slotId: string; status: "resolved" | "rejected"; turnId?: string }> {
  const { shared, record, store } = context;
  const status = "resolve" in answer ? "resolved" : "rejected";
  const unknown = () => notFound(`No slot ${quoted(slotId)} waits for an answer in this conversation.`);
  if (!storeKeepsWaits(store)) throw unknown();
  const own = (await store.getWaits()).find((w) => w.id === slotId && w.kind === "question");
  if (own && own.status !== "pending")
    throw conflict("GLOVE_SLOT_SETTLED", `Slot ${slotId} is already ${own.status}; the first answer won.`);
  // Not this conversation's own: a subagent's, still waiting below one of its calls?
  if (!own && !(await pendingQuestions(store, await store.getMessages())).some((question) => question.id === slotId))
    throw unknown();
  const turnId = crypto.randomUUID();
  const release = await context.claim(turnId);
  if (!release) {
    throw conflict(
      "GLOVE_BUSY",
      "A turn is running in this conversation; answer its questions once it has ended (turn_end), or abort it first.",
    );
  }
  let resumes: boolean;
  let wait: { toolCallId: string; toolName: string };
  try {
    const glove = await shared.agents.open({
      conversationId: record.id,
      agent: record.agent,
      principal: { id: record.owner },
      store,
    });
    const tools = toolsOf(glove);
    shared.agents.release(record.agent, record.id);
    if (!tools)
      throw new HttpError(
        501,
        "GLOVE_NOT_SUPPORTED",
        `Agent ${quoted(record.agent)} is not a glove-core Glove: its stored questions cannot be answered on another instance.`,
      );
    const history = await store.getMessages();
    wait = await recordStoredAnswer(store, history, tools, slotId, answer);
    resumes = (await pendingQuestions(store, history)).length === 0;
  } catch (error) {
    await release();
    throw refusalToHttp(error);
  }
  const events = await outOfTurn(shared, record);
  await events.emit("slot_settled", { slotId, status }, [slotId, "", status]).catch(() => undefined);
  if (!resumes) {
    await release();
    return { slotId, status };
  }
  const { id, owner, agent } = record;
  const question = { slotId, toolCallId: wait.toolCallId, toolName: wait.toolName, status } as const;
  await shared.queue.add(
    "answer",
    { conversationId: id, turnId, text: "", owner, agent, answer: question },
    jobOptions(turnId),
  );
  return { slotId, status, turnId };
}

/**
 * The stored questions that still wait, subagents' included: one cheap read when none can (no
 * pending wait of its own, and no subagent call that kept a durable store its questions live in).
 */
export async function waitingQuestions(store: StoreAdapter): Promise<PendingQuestion[]> {
  if (!storeKeepsWaits(store)) return [];
  const waits = await store.getWaits();
  if (!waits.some((wait) => wait.status === "pending" || wait.toolName === SUBAGENT_DISPATCH_TOOL_NAME)) return [];
  return pendingQuestions(store, await store.getMessages());
}

/**
 * Aborts a turn that waits in the store (the caller holds the conversation's claim, so no worker
 * runs it): its questions are cancelled, its unanswered calls end as aborted, and every reader
 * sees both. Returns the withdrawn slot ids.
 */
export async function withdrawWaiting(
  shared: ScaleShared,
  record: ConversationRecord,
  store: StoreAdapter,
): Promise<string[]> {
  const waiting = await waitingQuestions(store);
  if (waiting.length === 0 || !store.settleWait) return [];
  const settled_at = new Date().toISOString();
  for (const question of waiting)
    await store.settleWait(question.id, { status: "cancelled", value: "the turn was aborted", settled_at });
  const repair = repairForInterruptedTools(await store.getMessages(), []);
  if (repair) await store.appendMessages([repair]);
  const events = await outOfTurn(shared, record);
  for (const question of waiting)
    await events
      .emit("slot_settled", { slotId: question.id, status: "closed" }, [question.id, "", "closed"])
      .catch(() => undefined);
  const messages = await store.getMessages();
  const announced = Number((await shared.redis.hget(shared.keys(record.id).state, "messageCount")) ?? messages.length);
  if (messages.length > announced) {
    await events
      .emit("messages_appended", { messages: messages.slice(announced), startIndex: announced }, [
        String(messages.length),
      ])
      .catch(() => undefined);
  }
  return waiting.map((question) => question.id);
}

/** Events written outside a turn (no fencing token), to the stream every instance reads. */
export async function outOfTurn(shared: ScaleShared, record: ConversationRecord): Promise<TurnEmitter> {
  const { redis, scale, options, tail } = shared;
  // Fresh from the catalog: the id base matters only when Redis lost the counter.
  const base = (await shared.storage.catalog.get(record.id))?.eventIdsReserved ?? record.eventIdsReserved;
  const log = (error: unknown) => options.log("[glove-server] could not write an event to Redis", error);
  return new TurnEmitter(
    redis,
    shared.keys(record.id),
    "",
    base,
    scale,
    () => undefined,
    log,
    (id, type, json) => tail.deliverLocal(record.id, id, type, json),
  );
}
