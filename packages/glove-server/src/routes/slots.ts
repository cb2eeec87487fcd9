import { badRequest, conflict, notFound } from "../errors.js";
import { readJsonObject } from "../http/read-json.js";
import { json } from "../http/responses.js";
import { ownedLive, type RouteContext } from "./route-context.js";

/** POST /conversations/:id/slots/:slotId `{ resolve: value }` | `{ reject: reason }` */
export async function answerSlot(ctx: RouteContext): Promise<Response> {
  const body = await readJsonObject(ctx.request, ctx.options.bodyBytes);
  const resolving = "resolve" in body;
  if (resolving === "reject" in body) {
    throw badRequest("Send exactly one of { resolve: value } or { reject: reason }.", [{ path: "(root)", message: "needs resolve or reject" }]);
  }
  const conversation = await ownedLive(ctx);
  const slotId = ctx.params.slotId ?? "";
  const slot = conversation.slots.get(slotId);
  if (!slot || slot.mode !== "wait") throw notFound(`No slot ${JSON.stringify(slotId)} waits for an answer in this conversation.`);
  if (slot.status !== "pending") throw conflict("GLOVE_SLOT_SETTLED", `Slot ${slotId} is already ${slot.status}; the first answer won.`);

  const display = conversation.glove.displayManager;
  if (resolving && display.checkAnswer) {
    // Checked here to answer 400 while the slot keeps waiting; the manager parses the raw value
    // itself on resolve (passing the parsed value would parse a transforming schema twice).
    const checked = display.checkAnswer(slotId, body.resolve);
    if (!checked.ok) {
      if (checked.reason === "unknown_slot") throw conflict("GLOVE_SLOT_SETTLED", checked.message);
      throw badRequest(`${checked.message} The slot keeps waiting for a valid answer.`, checked.issues);
    }
  }
  if (!conversation.slots.claim(slotId, resolving ? "resolved" : "rejected")) {
    throw conflict("GLOVE_SLOT_SETTLED", `Slot ${slotId} was answered by another client first.`);
  }
  if (resolving) display.resolve(slotId, body.resolve);
  else display.reject(slotId, typeof body.reject === "string" ? body.reject : "rejected by the user");
  return json(200, { slotId, status: resolving ? "resolved" : "rejected" });
}
