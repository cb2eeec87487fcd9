import { badRequest } from "../errors.js";
import { readJsonObject } from "../http/read-json.js";
import { json } from "../http/responses.js";
import { ownedLive, type RouteContext } from "./route-context.js";

/** POST /conversations/:id/slots/:slotId `{ resolve: value }` | `{ reject: reason }` */
export async function answerSlot(ctx: RouteContext): Promise<Response> {
  const body = await readJsonObject(ctx.request, ctx.options.bodyBytes);
  const resolving = "resolve" in body;
  if (resolving === "reject" in body) {
    throw badRequest("Send exactly one of { resolve: value } or { reject: reason }.", [
      { path: "(root)", message: "needs resolve or reject" },
    ]);
  }
  const conversation = await ownedLive(ctx);
  const answer = resolving ? { resolve: body.resolve } : { reject: body.reject };
  return json(200, await conversation.answerSlot(ctx.params.slotId ?? "", answer));
}
