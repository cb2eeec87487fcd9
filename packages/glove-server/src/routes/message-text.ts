import { badRequest, tooLarge } from "../errors.js";
import type { RouteContext } from "./route-context.js";

/** The `text` of a message body (a new message or an edit): a non-empty string within the server's limit. */
export function readMessageText(ctx: RouteContext, body: Record<string, unknown>): string {
  const { text } = body;
  if (typeof text !== "string" || text.trim() === "") {
    throw badRequest("Send { text: string } with the message to the agent.", [
      { path: "text", message: "must be a non-empty string" },
    ]);
  }
  if (text.length > ctx.options.textChars)
    throw tooLarge(`The message has ${text.length} characters; the limit is ${ctx.options.textChars}.`);
  return text;
}
