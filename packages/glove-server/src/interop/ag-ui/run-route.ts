import { readJsonObject } from "../../http/read-json.js";
import { sseResponse } from "../../http/sse-response.js";
import type { ConversationHandle } from "../../conversations/conversation-handle.js";
import { admitted, startAdmittedTurn } from "../../routes/admit-turn.js";
import type { ConversationRecord } from "../../storage/types.js";
import type { RouteContext } from "../../routes/route-context.js";
import { NativeEvents } from "../shared/native-events.js";
import { userIntent } from "./branch-intent.js";
import { followRun, ids, type Snapshot, type StreamPlan } from "./follow-run.js";
import { resumeRun } from "./resume-run.js";
import { parseRunInput, type RunRequest } from "./run-input.js";
import { runStream, stateOf } from "./run-stream.js";
import { threadRecord } from "./thread.js";
import type { Message } from "glove-core";

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
  const plan = run.resume
    ? await resumeRun(conversation, { ...run, resume: run.resume })
    : await messageRun(ctx, record, conversation, run);
  const { after } = plan;
  // Scale mode: the events up to there reach this instance's log first (as on the native stream).
  await conversation.catchUp?.(after);
  const native = new NativeEvents(conversation, { after, heartbeatMs: ctx.options.heartbeatMs });
  const { threadId, runId, page } = run;
  return sseResponse(runStream({ ...plan, conversation, native, threadId, runId, page, ids }));
}

/** A run with a new user message (a turn starts, or the retried message's turn is followed), or none. */
async function messageRun(
  ctx: RouteContext,
  record: ConversationRecord,
  conversation: ConversationHandle,
  run: RunRequest,
): Promise<StreamPlan> {
  const before = await conversation.snapshot();
  if (!run.userMessage) return followRun(before, undefined, run);
  const { turnId, duplicate } = await startUserTurn(ctx, record, conversation, before, run);
  if (duplicate) return followRun(before, turnId, run);
  return {
    turnId,
    started: false,
    userMessageId: run.userMessage.id,
    prelude: [{ type: "STATE_SNAPSHOT", snapshot: stateOf(before.data) }],
    after: before.lastId,
  };
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
