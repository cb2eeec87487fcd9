import type { ConversationChanges, ConversationRecord } from "./types.js";

/** Column names of the catalog table, in record order (the SQL catalogs share them). */
export const CATALOG_COLUMNS = {
  id: "id",
  owner: "owner",
  agent: "agent",
  title: "title",
  createdAt: "created_at",
  updatedAt: "updated_at",
  eventIdsReserved: "event_ids_reserved",
  runningTurnId: "running_turn_id",
  lastClientMessageId: "last_client_message_id",
  lastTurnId: "last_turn_id",
} as const satisfies Record<keyof ConversationRecord, string>;

type Row = Record<string, unknown>;

/** A catalog row as a record; numbers may arrive as strings (Postgres BIGINT). */
export function recordFromRow(row: Row): ConversationRecord {
  const text = (key: keyof ConversationRecord) => {
    const value = row[CATALOG_COLUMNS[key]];
    return value === null || value === undefined ? null : String(value);
  };
  return {
    id: String(row.id),
    owner: String(row.owner),
    agent: String(row.agent),
    title: text("title"),
    createdAt: String(row.created_at),
    updatedAt: String(row.updated_at),
    eventIdsReserved: Number(row.event_ids_reserved),
    runningTurnId: text("runningTurnId"),
    lastClientMessageId: text("lastClientMessageId"),
    lastTurnId: text("lastTurnId"),
  };
}

/** `[column, value]` pairs of the fields a change sets, in a fixed order. */
export function changedColumns(changes: ConversationChanges): Array<[string, unknown]> {
  return (Object.keys(changes) as Array<keyof ConversationChanges>)
    .filter((key) => key in CATALOG_COLUMNS && changes[key] !== undefined)
    .map((key) => [CATALOG_COLUMNS[key], changes[key]]);
}
