import type { SlotAnswer } from "../../conversations/conversation-handle.js";
import type { LiveConversation } from "../../conversations/live-conversation.js";
import { badRequest } from "../../errors.js";
import type { EventReplicator } from "./event-replicator.js";
import type { ForwardedMethod, OwnedSnapshot } from "./remote-conversation.js";

const text = (value: unknown): string => {
  if (typeof value !== "string") throw badRequest("A forwarded request lost its text argument.");
  return value;
};

/**
 * Runs a conversation method on the owner, with arguments as they came over the wire (JSON): the
 * one place that maps a forwarded request to the engine. A snapshot waits for its events to be
 * in Redis, so the asking instance finds everything up to its `lastId` in the stream.
 */
export async function invokeOwned(
  conversation: LiveConversation,
  method: ForwardedMethod,
  args: unknown[],
  replicator: EventReplicator,
): Promise<unknown> {
  switch (method) {
    case "snapshot": {
      const { data, lastId } = await conversation.snapshot();
      await replicator.flushed(conversation.id);
      return { data, lastId, baseId: conversation.log.baseId } satisfies OwnedSnapshot;
    }
    case "startTurn":
      return conversation.startTurn(text(args[0]), typeof args[1] === "string" ? args[1] : undefined);
    case "turnSettled":
      return conversation.turnSettled(text(args[0]));
    case "answerSlot":
      return conversation.answerSlot(text(args[0]), args[1] as SlotAnswer);
    case "settledQuestion":
      return (await conversation.settledQuestion(text(args[0]))) ?? null;
    case "abortTurn":
      return conversation.abortTurn();
    case "regenerate":
      return conversation.regenerate();
    case "editMessage":
      return conversation.editMessage(text(args[0]), text(args[1]));
    case "branches":
      return conversation.branches();
    case "switchBranch":
      return conversation.switchBranch(text(args[0]));
  }
}
