import type { ConversationHandle } from "../conversations/conversation-handle.js";
import type { ConversationRecord } from "../storage/types.js";
import type { RouteContext } from "./route-context.js";

/**
 * Starts a turn within the caller's turn quotas (a 429 past them), holding one running-turn slot
 * until the turn settles. A retry of the last message answers the turn it started: no quota is
 * spent on it, even at the cap. Shared by the native message route and the interop routes.
 */
export async function startAdmittedTurn(
  ctx: RouteContext,
  record: ConversationRecord,
  conversation: ConversationHandle,
  text: string,
  clientMessageId: string | undefined,
): Promise<{ turnId: string; duplicate: boolean }> {
  const retry = clientMessageId !== undefined && record.lastClientMessageId === clientMessageId && record.lastTurnId !== null;
  const release = retry ? () => undefined : ctx.quotas.admitTurn(ctx.principal.id);
  try {
    const started = await conversation.startTurn(text, clientMessageId);
    // A retried message answers the turn it started, which holds its own slot already.
    if (started.duplicate || !conversation.turnSettled) release();
    else void conversation.turnSettled(started.turnId).then(release, release);
    return started;
  } catch (error) {
    release();
    throw error;
  }
}
