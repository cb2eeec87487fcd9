import { conflict, notFound, quoted } from "../../errors.js";
import { readJsonObject } from "../../http/read-json.js";
import { sseResponse } from "../../http/sse-response.js";
import type { ConversationHandle } from "../../conversations/conversation-handle.js";
import { admitted, startAdmittedTurn } from "../../routes/admit-turn.js";
import type { ConversationRecord } from "../../storage/types.js";
import type { RouteContext } from "../../routes/route-context.js";
import { NativeEvents } from "../shared/native-events.js";
import { AgUiEventMapper } from "./event-mapper.js";
import type { AgUiEvent } from "./events.js";
import { resumePosition } from "./interrupt-positions.js";
import { resumeToAnswer, waitingSlots, type ResumeEntry } from "./interrupts.js";
import { toAgUiMessages } from "./messages.js";
import { userIntent } from "./branch-intent.js";
import { parseRunInput, type RunRequest } from "./run-input.js";
import { closingEvents, runStream, stateOf, type RunStreamOptions } from "./run-stream.js";
import { threadRecord } from "./thread.js";
import type { Message } from "glove-core";

type Snapshot = Awaited<ReturnType<ConversationHandle["snapshot"]>>;
type StreamPlan = Omit<RunStreamOptions, "conversation" | "native" | "threadId" | "runId" | "ids"> & {
  /** Where the run's events start, when not where the conversation stood at the request. */
  after?: number;
};

const ids = () => crypto.randomUUID();

/**
 * POST /ag-ui (or /ag-ui/:agent) with an AG-UI RunAgentInput → the run as AG-UI events (SSE).
 * The thread is a conversation: a new user message starts a turn, `resume` answers the questions
 * that ended the last run, and a run with neither follows the turn that runs (or reports the
 * conversation as it is). Bad input is refused with a 4xx before the stream opens.
 */
export async function runAgUi(ctx: RouteContext): Promise<Response> {
  const body = await readJsonObject(ctx.request, ctx.options.bodyBytes);
  const run = parseRunInput(body, ctx.options);
  const record = await threadRecord(ctx, run.threadId);
  const conversation = await ctx.host.open(record, ctx.principal);
  const before = await conversation.snapshot();
  let plan: StreamPlan;
  if (run.resume) plan = await resumeRun(conversation, before, run.resume, run.threadId, run.runId);
  else if (run.userMessage) {
    const { turnId, duplicate } = await startUserTurn(ctx, record, conversation, before, run);
    plan = duplicate
      ? followRun(before, turnId, run.threadId, run.runId)
      : {
          turnId,
          started: false,
          userMessageId: run.userMessage.id,
          prelude: [{ type: "STATE_SNAPSHOT", snapshot: stateOf(before.data) }],
        };
  } else plan = followRun(before, undefined, run.threadId, run.runId);
  const after = plan.after ?? before.lastId;
  // Scale mode: the events up to there reach this instance's log first (as on the native stream).
  await conversation.catchUp?.(after);
  const native = new NativeEvents(conversation, { after, heartbeatMs: ctx.options.heartbeatMs });
  return sseResponse(runStream({ ...plan, conversation, native, threadId: run.threadId, runId: run.runId, ids }));
}

/**
 * The turn a new user message starts: a message, or — when the client sent the conversation up
 * to an earlier point (assistant-ui's reload and edit) — a regenerate or an edit, within the same
 * turn quotas. A retry of the message whose turn still runs follows that turn.
 */
async function startUserTurn(
  ctx: RouteContext,
  record: ConversationRecord,
  conversation: ConversationHandle,
  before: Snapshot,
  run: RunRequest,
): Promise<{ turnId: string; duplicate?: boolean }> {
  const message = run.userMessage!;
  const retry = record.lastClientMessageId === message.id && before.data.busy === true;
  const intent = retry
    ? { kind: "message" as const }
    : userIntent((before.data.messages ?? []) as Message[], message.text, run.earlierUserTexts);
  if (intent.kind === "regenerate") return admitted(ctx, conversation, () => conversation.regenerate());
  if (intent.kind === "edit")
    return admitted(ctx, conversation, () => conversation.editMessage(intent.messageId, message.text));
  return startAdmittedTurn(ctx, record, conversation, message.text, message.id);
}

/**
 * A run that joins the conversation as it is (a retried message, or no new message): the history
 * and state, the text streaming now, then the running turn to its end; with no turn running
 * (or not the one named), or one waiting for an answer, it ends at once — as an interrupt when
 * questions wait.
 */
function followRun({ data }: Snapshot, turnId: string | undefined, threadId: string, runId: string): StreamPlan {
  const running = data.busy === true && (turnId === undefined || data.turnId === turnId);
  // A turn that waits for a person streams nothing until answered: the run ends as that interrupt.
  if (!running || waitingSlots(data.slots).length > 0)
    return { turnId, started: true, prelude: [], finished: closingEvents(data, threadId, runId) };
  const mapper = new AgUiEventMapper(ids);
  const streaming = typeof data.streamingText === "string" ? data.streamingText : "";
  const prelude: AgUiEvent[] = [
    { type: "MESSAGES_SNAPSHOT", messages: toAgUiMessages((data.messages ?? []) as Message[]) },
    { type: "STATE_SNAPSHOT", snapshot: stateOf(data) },
    // What streamed before this run joined, closed: the rest follows as a new message.
    ...mapper.text(streaming),
    ...mapper.close(),
  ];
  return { turnId: typeof data.turnId === "string" ? data.turnId : undefined, started: true, prelude };
}

/**
 * Answers the questions named in `resume`, as the native answer route does (so a turn that left
 * memory resumes from the store), then follows the turn. Answers for questions already answered
 * are skipped (a replayed resume is safe); an id the conversation never asked is a 404.
 */
async function resumeRun(
  conversation: ConversationHandle,
  before: Snapshot,
  resume: ResumeEntry[],
  threadId: string,
  runId: string,
): Promise<StreamPlan> {
  const slots = Array.isArray(before.data.slots) ? (before.data.slots as ReturnType<typeof waitingSlots>) : [];
  const waiting = new Map(waitingSlots(slots).map((slot) => [slot.id, slot]));
  const answers = resume.map((entry, index) => {
    const slot = slots.find((s) => s.id === entry.interruptId);
    if (!slot || slot.mode !== "wait")
      throw notFound(`resume[${index}]: no question ${quoted(entry.interruptId)} waits in this thread.`);
    return waiting.has(slot.id) ? { slotId: slot.id, answer: resumeToAnswer(entry, slot, index) } : undefined;
  });
  if (new Set(resume.map((entry) => entry.interruptId)).size !== resume.length)
    throw conflict("GLOVE_DUPLICATE_ANSWER", "resume answers the same interrupt twice.");
  for (const answer of answers) if (answer) await conversation.answerSlot(answer.slotId, answer.answer);
  const answered = new Set(resume.map((entry) => entry.interruptId));
  const stillWaiting = [...waiting.keys()].some((id) => !answered.has(id));
  // Questions left open: the run ends at once, interrupted by them (AG-UI resumes answer them all).
  if (stillWaiting)
    return {
      turnId: undefined,
      started: true,
      prelude: [],
      finished: closingEvents((await conversation.snapshot()).data, threadId, runId),
    };
  // A replayed resume: the run follows the turn the first one resumed, or reports where it stands.
  if (answers.every((answer) => answer === undefined))
    return followRun(await conversation.snapshot(), undefined, threadId, runId);
  // From where the interrupted run stopped: what happened since (a parallel call's result) follows too.
  const after = resumePosition(conversation.log, [...answered], before.lastId);
  return { turnId: undefined, started: true, prelude: [], after };
}
