import { badRequest } from "../errors.js";
import { readJsonObject } from "../http/read-json.js";
import { json } from "../http/responses.js";
import { readMessageText } from "./message-text.js";
import { startAdmittedTurn } from "./admit-turn.js";
import { ownedLive, ownedRecord, type RouteContext } from "./route-context.js";

/** POST /conversations/:id/messages `{ text, clientMessageId? }` → 202 `{ turnId }` */
export async function postMessage(ctx: RouteContext): Promise<Response> {
  const body = await readJsonObject(ctx.request, ctx.options.bodyBytes);
  const text = readMessageText(ctx, body);
  const { clientMessageId } = body;
  if (
    clientMessageId !== undefined &&
    (typeof clientMessageId !== "string" || clientMessageId.length === 0 || clientMessageId.length > 200)
  ) {
    throw badRequest("clientMessageId must be a string of 1 to 200 characters.", [
      { path: "clientMessageId", message: "invalid" },
    ]);
  }
  const record = await ownedRecord(ctx);
  const conversation = await ctx.host.open(record, ctx.principal);
  const { turnId, duplicate } = await startAdmittedTurn(ctx, record, conversation, text, clientMessageId);
  return json(202, { turnId, duplicate });
}

/** POST /conversations/:id/abort → stops the running turn everywhere; `{ aborted, turnId?, status? }` */
export async function abortTurn(ctx: RouteContext): Promise<Response> {
  const conversation = await ownedLive(ctx);
  return json(200, await conversation.abortTurn());
}
