import type { WireSlot } from "glove-core";
import type { ConversationHandle, SlotAnswer } from "../../conversations/conversation-handle.js";
import type { EventLog } from "../../conversations/event-log.js";
import { conflict, HttpError, notFound, quoted } from "../../errors.js";
import { followRun, type StreamPlan } from "./follow-run.js";
import { resumePosition } from "./interrupt-positions.js";
import { resumeToAnswer, waitingSlots, type ResumeEntry } from "./interrupts.js";
import type { RunRequest } from "./run-input.js";
import { closingEvents } from "./run-stream.js";

/** A run that answers questions: the run's ids, its `resume` and the page's messages. */
type ResumeRequest = Pick<RunRequest, "threadId" | "runId" | "page"> & { resume: ResumeEntry[] };

/** The resumes of a thread under way in this process, by the conversation's log: they take turns. */
const resuming = new WeakMap<EventLog, Promise<unknown>>();

/**
 * Answers the questions named in `resume`, as the native answer route does (so a turn that left
 * memory resumes from the store), then follows the turn. A resume of a thread waits for the one
 * before it in this process, so two identical resumes at once are an answer and its replay.
 */
export function resumeRun(conversation: ConversationHandle, run: ResumeRequest): Promise<StreamPlan> {
  const { resume } = run;
  if (new Set(resume.map((entry) => entry.interruptId)).size !== resume.length)
    throw conflict("GLOVE_DUPLICATE_ANSWER", "resume answers the same interrupt twice.");
  const previous = resuming.get(conversation.log) ?? Promise.resolve();
  const mine = previous.then(
    () => answerAndFollow(conversation, run),
    () => answerAndFollow(conversation, run),
  );
  resuming.set(conversation.log, mine);
  const forget = () => void (resuming.get(conversation.log) === mine && resuming.delete(conversation.log));
  mine.then(forget, forget);
  return mine;
}

/**
 * Answers for questions no longer waiting are skipped, so a replayed resume is safe: one answered
 * in this process (its slot still on the board), or — read from the store's record of the
 * question, which outlives the process — one answered before a restart or by a concurrent resume.
 * An id the conversation never asked is a 404.
 */
async function answerAndFollow(conversation: ConversationHandle, run: ResumeRequest): Promise<StreamPlan> {
  const { resume } = run;
  const before = await conversation.snapshot();
  const slots = Array.isArray(before.data.slots) ? (before.data.slots as WireSlot[]) : [];
  const waiting = new Map(waitingSlots(slots).map((slot) => [slot.id, slot]));
  const answers: Array<{ slotId: string; answer: SlotAnswer }> = [];
  for (const [index, entry] of resume.entries()) {
    const slot = waiting.get(entry.interruptId);
    if (slot) answers.push({ slotId: slot.id, answer: resumeToAnswer(entry, slot, index) });
    else if (!(await answeredBefore(conversation, slots, entry.interruptId)))
      throw notFound(`resume[${index}]: no question ${quoted(entry.interruptId)} waits in this thread.`);
  }
  let applied = 0;
  for (const { slotId, answer } of answers) if (await answerOnce(conversation, slotId, answer)) applied++;
  const answered = new Set(resume.map((entry) => entry.interruptId));
  // Questions left open: the run ends at once, interrupted by them (AG-UI resumes answer them all).
  if ([...waiting.keys()].some((id) => !answered.has(id))) {
    const now = await conversation.snapshot();
    const finished = closingEvents(now.data, run.threadId, run.runId, run);
    return { turnId: undefined, started: true, prelude: [], finished, after: now.lastId };
  }
  // A replayed resume: the run follows the turn the first one resumed, or reports where it stands.
  if (applied === 0) return followRun(await conversation.snapshot(), undefined, run);
  // From where the interrupted run stopped: what happened since (a parallel call's result) follows too.
  return {
    turnId: undefined,
    started: true,
    prelude: [],
    after: resumePosition(conversation.log, [...answered], before.lastId),
  };
}

/** Whether the question was asked in this thread and no longer waits: answered, or withdrawn. */
async function answeredBefore(conversation: ConversationHandle, slots: WireSlot[], slotId: string): Promise<boolean> {
  if (slots.some((slot) => slot.id === slotId && slot.mode === "wait")) return true;
  return (await conversation.settledQuestion?.(slotId)) !== undefined;
}

/**
 * Applies one answer; false when another request settled the question first (its record says so),
 * which makes this one a replay. Any other refusal stands.
 */
async function answerOnce(conversation: ConversationHandle, slotId: string, answer: SlotAnswer): Promise<boolean> {
  try {
    await conversation.answerSlot(slotId, answer);
    return true;
  } catch (error) {
    const lost = HttpError.isInstance(error) && (error.status === 404 || error.status === 409);
    if (lost && (await conversation.settledQuestion?.(slotId)) !== undefined) return false;
    throw error;
  }
}
