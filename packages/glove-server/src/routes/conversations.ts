import { badRequest, quoted } from "../errors.js";
import { readJsonObject } from "../http/read-json.js";
import { json } from "../http/responses.js";
import type { ConversationRecord } from "../storage/types.js";
import { ownedLive, ownedRecord, type RouteContext } from "./route-context.js";

/** The record as clients see it (bookkeeping columns stay on the server). */
function summary(record: ConversationRecord) {
  return {
    id: record.id,
    agent: record.agent,
    title: record.title,
    createdAt: record.createdAt,
    updatedAt: record.updatedAt,
  };
}

/** The agent a new conversation runs: the one named (400 when the server has none by that name) or the first. */
export function agentNamed(ctx: RouteContext, name: unknown, path = "agent"): string {
  const names = ctx.agents.names;
  const agent = name ?? names[0];
  if (typeof agent !== "string" || !names.includes(agent)) {
    throw badRequest(`Unknown agent ${quoted(name)}. Agents on this server: ${names.join(", ")}.`, [
      { path, message: `must be one of ${names.join(", ")}` },
    ]);
  }
  return agent;
}

/** Stores a new conversation of the caller's, within their conversation quotas (429 past them). */
export async function createRecord(
  ctx: RouteContext,
  agent: string,
  id: string = crypto.randomUUID(),
): Promise<ConversationRecord> {
  await ctx.quotas.admitConversation(ctx.principal.id, ctx.catalog);
  const now = new Date().toISOString();
  const record: ConversationRecord = {
    id,
    owner: ctx.principal.id,
    agent,
    title: null,
    createdAt: now,
    updatedAt: now,
    eventIdsReserved: 0,
    runningTurnId: null,
    lastClientMessageId: null,
    lastTurnId: null,
  };
  await ctx.catalog.create(record);
  return record;
}

/** POST /conversations `{ agent? }` → 201 `{ id, agent }` */
export async function createConversation(ctx: RouteContext): Promise<Response> {
  const body = await readJsonObject(ctx.request, ctx.options.bodyBytes);
  const record = await createRecord(ctx, agentNamed(ctx, body.agent));
  return json(201, summary(record), { location: `${ctx.options.basePath}/conversations/${record.id}` });
}

/** GET /conversations → the caller's conversations, newest first (`?limit=`, default 50, at most 200). */
export async function listConversations(ctx: RouteContext): Promise<Response> {
  const raw = ctx.url.searchParams.get("limit");
  const limit = raw === null ? 50 : Number(raw);
  if (!Number.isInteger(limit) || limit < 1 || limit > 200)
    throw badRequest("limit must be a whole number from 1 to 200.");
  const records = await ctx.catalog.listByOwner(ctx.principal.id, limit);
  return json(200, { conversations: records.map(summary) });
}

/** GET /conversations/:id → the snapshot a UI renders from. */
export async function getConversation(ctx: RouteContext): Promise<Response> {
  const conversation = await ownedLive(ctx);
  const { data } = await conversation.snapshot();
  return json(200, data);
}

/**
 * DELETE /conversations/:id → 204; a running turn ends as interrupted, open streams close, and
 * the stored data goes with it.
 */
export async function deleteConversation(ctx: RouteContext): Promise<Response> {
  const record = await ownedRecord(ctx);
  await ctx.host.forget(record.id);
  await ctx.catalog.delete(record.id);
  await ctx.purge(record.id);
  return new Response(null, { status: 204 });
}
