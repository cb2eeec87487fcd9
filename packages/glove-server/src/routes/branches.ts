import { json } from "../http/responses.js";
import { readJsonObject } from "../http/read-json.js";
import { admitted } from "./admit-turn.js";
import { ownedLive, ownedRecord, type RouteContext } from "./route-context.js";
import { readMessageText } from "./message-text.js";

/** POST /conversations/:id/regenerate → 202 `{ turnId }`: the last answer again; the old one stays as a sibling branch. */
export async function regenerate(ctx: RouteContext): Promise<Response> {
  const conversation = await ownedLive(ctx);
  return json(202, await admitted(ctx, conversation, () => conversation.regenerate()));
}

/** POST /conversations/:id/messages/:messageId/edit `{ text }` → 202 `{ turnId }`: replaces a user message and continues from it. */
export async function editMessage(ctx: RouteContext): Promise<Response> {
  const text = readMessageText(ctx, await readJsonObject(ctx.request, ctx.options.bodyBytes));
  const record = await ownedRecord(ctx);
  const conversation = await ctx.host.open(record, ctx.principal);
  return json(202, await admitted(ctx, conversation, () => conversation.editMessage(ctx.params.messageId ?? "", text)));
}

/** GET /conversations/:id/branches → `{ messages, points }`: the active branch and where it has alternatives. */
export async function listBranches(ctx: RouteContext): Promise<Response> {
  const conversation = await ownedLive(ctx);
  return json(200, await conversation.branches());
}

/** POST /conversations/:id/branches/:messageId → `{ messages, points }`: the branch through that message becomes active. */
export async function switchBranch(ctx: RouteContext): Promise<Response> {
  const conversation = await ownedLive(ctx);
  return json(200, await conversation.switchBranch(ctx.params.messageId ?? ""));
}
