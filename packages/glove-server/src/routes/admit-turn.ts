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
  const retry =
    clientMessageId !== undefined && record.lastClientMessageId === clientMessageId && record.lastTurnId !== null;
  return admitted(ctx, conversation, () => conversation.startTurn(text, clientMessageId), !retry);
}

/**
 * Runs `start` (a turn: a message, a regenerate, an edit) within the caller's turn quotas, holding
 * one running-turn slot until the turn settles; `spend: false` (a retry) holds none.
 */
export async function admitted<T extends { turnId: string; duplicate?: boolean }>(
  ctx: RouteContext,
  conversation: ConversationHandle,
  start: () => Promise<T>,
  spend = true,
): Promise<T> {
  const release = spend ? ctx.quotas.admitTurn(ctx.principal.id) : () => undefined;
  try {
    const started = await start();
    // A retried message answers the turn it started, which holds its own slot already.
    if (started.duplicate === true || !conversation.turnSettled) release();
    else void conversation.turnSettled(started.turnId).then(release, release);
    return started;
  } catch (error) {
    release();
    throw error;
  }
}
