import type { AgentSource } from "../agents/agent-source.js";
import type { ConversationHandle, ConversationHosting } from "../conversations/conversation-handle.js";
import { notFound, quoted } from "../errors.js";
import type { PrincipalQuotas } from "../limits/principal-quotas.js";
import type { ResolvedServerOptions } from "../options.js";
import type { Principal } from "../security/authenticate.js";
import type { ConversationCatalog, ConversationRecord } from "../storage/types.js";

/** What every route handler works with. */
export interface ServerParts {
  catalog: ConversationCatalog;
  /** Deletes a conversation's stored data, when the storage can. */
  purge: (conversationId: string) => Promise<void>;
  host: ConversationHosting;
  agents: AgentSource;
  options: ResolvedServerOptions;
  /** Per-principal quotas on conversations and turns. */
  quotas: PrincipalQuotas;
}

export interface RouteContext extends ServerParts {
  request: Request;
  url: URL;
  principal: Principal;
  /** Path parameters, e.g. `id` and `slotId`. */
  params: Record<string, string>;
}

/** What conversation ids look like (UUIDs); anything else names no conversation. */
export const CONVERSATION_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** The caller's conversation named in the path; anyone else's (or none) is a 404, so ids leak nothing. */
export async function ownedRecord(ctx: RouteContext): Promise<ConversationRecord> {
  const id = ctx.params.id ?? "";
  const record = CONVERSATION_ID.test(id) ? await ctx.catalog.get(id) : undefined;
  if (!record || record.owner !== ctx.principal.id)
    throw notFound(`No conversation ${quoted(id)} for you. List yours with GET /conversations.`);
  return record;
}

/** The caller's conversation, live in memory. */
export async function ownedLive(ctx: RouteContext): Promise<ConversationHandle> {
  const record = await ownedRecord(ctx);
  return ctx.host.open(record, ctx.principal);
}
