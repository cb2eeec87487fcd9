import { badRequest, quoted } from "../errors.js";
import { admitted } from "../routes/admit-turn.js";
import { createRecord } from "../routes/conversations.js";
import { readMessageText } from "../routes/message-text.js";
import type { RouteContext } from "../routes/route-context.js";
import type { ExtensionTurns } from "./server-extension.js";

/** The extension's view of the routes' helpers, for the request's principal. */
export function extensionTurns(ctx: RouteContext, variantNames: ReadonlySet<string>): ExtensionTurns {
  return {
    admitTurn: (conversation, start) => admitted(ctx, conversation, start),
    messageText: (body) => readMessageText(ctx, body),
    async createConversation(agent) {
      if (!ctx.agents.names.includes(agent) && !variantNames.has(agent)) {
        throw badRequest(`Unknown agent ${quoted(agent)}. Agents on this server: ${ctx.agents.names.join(", ")}.`, [
          { path: "agent", message: "unknown" },
        ]);
      }
      return createRecord(ctx, agent);
    },
  };
}
