import type { ConversationRecord } from "glove-server";

/** A catalog record as a new conversation of `ada`'s starts (no turn yet). */
export function catalogRecord(id: string, createdAt = "2024-02-01"): ConversationRecord {
  return {
    id,
    owner: "ada",
    agent: "assistant",
    title: null,
    createdAt,
    updatedAt: createdAt,
    eventIdsReserved: 0,
    runningTurnId: null,
    lastClientMessageId: null,
    lastTurnId: null,
  };
}
