import type { ConversationRecord } from "../types.js";
import type { ConversationStatus } from "./types.js";

/**
 * A conversation's status in listings, first match wins: waiting (a stored question waits for a
 * person, in it or a durable subagent store below it — also while a live server still holds the
 * turn that asked), running (a turn holds it), error (its last turn ended in an error), else idle.
 * The SQL inspectors compute the same in their queries.
 */
export function conversationStatus(
  record: Pick<ConversationRecord, "runningTurnId" | "lastTurnStatus">,
  waiting: boolean,
): ConversationStatus {
  if (waiting) return "waiting";
  if (record.runningTurnId) return "running";
  return record.lastTurnStatus === "error" ? "error" : "idle";
}

/** ASCII letters lowered, every other character kept: the text filter's case folding in every storage. */
export function foldCase(text: string): string {
  return text.replace(/[A-Z]/g, (letter) => letter.toLowerCase());
}
