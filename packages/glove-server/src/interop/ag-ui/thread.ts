import { badRequest, conflict, notFound, quoted } from "../../errors.js";
import { agentNamed, createRecord } from "../../routes/conversations.js";
import { CONVERSATION_ID, type RouteContext } from "../../routes/route-context.js";
import type { ConversationRecord } from "../../storage/types.js";

/**
 * The conversation an AG-UI thread names: the caller's conversation with that id, or a new one
 * (AG-UI clients make up their thread ids, random UUIDs). Someone else's is a 404, as on the
 * native routes, and so is an agent the server does not have; a thread of another agent than the
 * route names is a 409.
 */
export async function threadRecord(ctx: RouteContext, threadId: string): Promise<ConversationRecord> {
  if (!CONVERSATION_ID.test(threadId)) {
    throw badRequest(
      `threadId ${quoted(threadId)} is not a conversation id: use a lowercase UUID (what AG-UI clients generate) or the id of POST /conversations.`,
      [{ path: "threadId", message: "must be a lowercase UUID" }],
    );
  }
  const agent = ctx.params.agent === undefined ? undefined : pathAgent(ctx, ctx.params.agent);
  const record =
    (await ctx.catalog.get(threadId)) ?? (await created(ctx, threadId, agent ?? agentNamed(ctx, undefined)));
  if (record.owner !== ctx.principal.id)
    throw notFound(`No conversation ${quoted(threadId)} for you. Start a new thread with a new threadId.`);
  if (agent !== undefined && record.agent !== agent) {
    throw conflict(
      "GLOVE_AGENT_MISMATCH",
      `Thread ${threadId} talks to agent ${quoted(record.agent)}, not ${quoted(agent)}; run it at …/ag-ui/${record.agent}.`,
    );
  }
  return record;
}

/** The agent a route path names (`/ag-ui/:agent`): one the server does not have is no route, a 404. */
function pathAgent(ctx: RouteContext, name: string): string {
  if (ctx.agents.names.includes(name)) return name;
  throw notFound(
    `No AG-UI agent ${quoted(name)} on this server. Run one of ${ctx.agents.names.map((n) => `…/ag-ui/${n}`).join(", ")}, or …/ag-ui for the first.`,
  );
}

/** A new conversation with the thread's id; when a concurrent run created it first, that one. */
async function created(ctx: RouteContext, threadId: string, agent: string): Promise<ConversationRecord> {
  try {
    return await createRecord(ctx, agent, threadId);
  } catch (error) {
    const existing = await ctx.catalog.get(threadId);
    if (existing) return existing;
    throw error;
  }
}
