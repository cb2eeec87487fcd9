import type { NodeSqliteDatabaseSync, SqliteDatabase } from "./driver/types.js";
import { asSqliteDatabase } from "./driver/open-database.js";
import type { MessagePageResult, MessageRecord } from "glove-core";
import { checkedPage, createRecordCodec } from "glove-core";
import { SqliteStoreError } from "./errors.js";
import { GroupCommit, sessionWritesKey } from "./group-commit.js";

/** Where to read one page of a session's messages. */
export interface SqliteMessagePageOptions {
  /** An open connection (better-sqlite3, node:sqlite, or `openSqliteDatabase`); read only. */
  database: SqliteDatabase | NodeSqliteDatabaseSync;
  sessionId: string;
  offset: number;
  limit: number;
}

/**
 * Messages [offset, offset + limit) of a session and its message count: two indexed reads that
 * never write (no migration, no session row), so they work on a read-only handle. A database
 * without Glove's tables, or an unknown session, has no messages.
 */
export function readMessagePage({ sessionId, offset, limit, ...options }: SqliteMessagePageOptions): MessagePageResult {
  const database = asSqliteDatabase(options.database);
  const invalid = (detail: string, code = "GLOVE_STORE_INVALID") => new SqliteStoreError(sessionId, detail, code);
  const [from, count] = checkedPage(offset, limit, invalid);
  GroupCommit.of(database)?.flushFor(sessionWritesKey(sessionId)); // a page read sees every write queued before it
  const tables = database
    .prepare(
      "SELECT count(*) AS n FROM sqlite_master WHERE type = 'table' AND name IN ('glove_sessions', 'glove_messages')",
    )
    .get() as { n: number };
  if (tables.n < 2) return { messages: [], total: 0 };
  const row = database.prepare("SELECT message_count FROM glove_sessions WHERE session_id = ?").get(sessionId) as
    { message_count: number } | undefined;
  if (!row) return { messages: [], total: 0 };
  const where = `SQLite database ${database.name}`;
  const codec = createRecordCodec({ error: invalid, where });
  const rows = database
    .prepare("SELECT seq, body FROM glove_messages WHERE session_id = ? AND seq >= ? AND seq < ? ORDER BY seq")
    .all(sessionId, from, from + count) as MessageRecord[];
  return {
    messages: rows.map((r) => codec.decodeMessage(r, { in: where, table: "glove_messages" })),
    total: row.message_count,
  };
}
