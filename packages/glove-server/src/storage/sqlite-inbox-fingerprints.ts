import { createHash } from "node:crypto";
import { GroupCommit, sessionWritesKey, type SqliteDatabase, type SqliteStatement } from "glove-sqlite";
import type { InboxFingerprints } from "./types.js";

/** Every column of an item, each `quote()`d: one row's text can be read back unambiguously. */
const ITEM = ["item_id", "position", "tag", "request", "response", "status", "blocking", "created_at", "resolved_at"]
  .map((column) => `quote(${column})`)
  .join(" || ',' || ");

/**
 * Inbox fingerprints of many conversations in one statement (glove-sqlite's `glove_inbox`): a hash
 * of every column of every item, so any change a store can read changes it. Writes still queued for
 * one of the conversations (group commit) are committed first, as before a store's own read.
 */
export function sqliteInboxFingerprints(database: SqliteDatabase): InboxFingerprints {
  let statement: SqliteStatement | undefined;
  return async (conversationIds) => {
    const group = GroupCommit.of(database);
    if (group) for (const id of conversationIds) group.flushFor(sessionWritesKey(id));
    if (!statement) {
      // No store has opened the file yet: no inbox table, so no items.
      if (!database.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'glove_inbox'").get())
        return new Map();
      statement = database.prepare(
        `SELECT session_id, group_concat(${ITEM}, ';' ORDER BY position, item_id) AS items
         FROM glove_inbox WHERE session_id IN (SELECT value FROM json_each(?)) GROUP BY session_id`,
      );
    }
    const rows = statement.all(JSON.stringify(conversationIds)) as Array<{ session_id: string; items: string }>;
    return new Map(rows.map((row) => [row.session_id, createHash("sha1").update(row.items).digest("base64")]));
  };
}
