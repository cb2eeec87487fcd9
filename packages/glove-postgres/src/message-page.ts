import type { Pool, PoolClient } from "pg";
import type { MessagePageResult, MessageRecord } from "glove-core";
import { checkedPage, createRecordCodec } from "glove-core";
import { PostgresStoreError } from "./errors.js";
import { tableNames } from "./session.js";

/** Where to read one page of a session's messages. */
export interface PostgresMessagePageOptions {
  pool: Pool | PoolClient;
  /** The schema of Glove's tables. Default "glove". */
  schema?: string;
  sessionId: string;
  offset: number;
  limit: number;
}

/**
 * Messages [offset, offset + limit) of a session and its message count, in one statement that
 * never writes (no migration, no session row), so it runs in a read-only transaction. A schema
 * without Glove's tables, or an unknown session, has no messages.
 */
export async function readMessagePage({
  pool,
  schema = "glove",
  sessionId,
  offset,
  limit,
}: PostgresMessagePageOptions): Promise<MessagePageResult> {
  const invalid = (detail: string, code = "GLOVE_STORE_INVALID") => new PostgresStoreError(sessionId, detail, code);
  const page = checkedPage(offset, limit, invalid);
  const tables = tableNames(schema);
  const present = await pool.query<{ t: string | null }>("SELECT to_regclass($1)::text AS t", [tables.messages]);
  if (!present.rows[0]?.t) return { messages: [], total: 0 };
  return readPageRows(pool, schema, sessionId, page);
}

/**
 * The page in one statement, where Glove's tables are known to exist (a store after `ready()`):
 * a Glove's cached-view check reads a one-message page on every model call, so this is the whole
 * cost of that check — one round trip, as `messageCount` is.
 */
export async function readPageRows(
  pool: Pool | PoolClient,
  schema: string,
  sessionId: string,
  [from, count]: [offset: number, limit: number],
): Promise<MessagePageResult> {
  const tables = tableNames(schema);
  const { rows } = await pool.query<MessageRecord & { total: string | null }>(
    `SELECT s.message_count AS total, m.seq, m.body FROM ${tables.sessions} s
     LEFT JOIN ${tables.messages} m ON m.session_id = s.session_id AND m.seq >= $2 AND m.seq < $3
     WHERE s.session_id = $1 ORDER BY m.seq`,
    [sessionId, from, from + count],
  );
  if (rows.length === 0) return { messages: [], total: 0 };
  const invalid = (detail: string, code = "GLOVE_STORE_INVALID") => new PostgresStoreError(sessionId, detail, code);
  const codec = createRecordCodec({ error: invalid, where: `schema ${schema}` });
  const messages = rows
    .filter((row) => row.body !== null)
    .map((row) => codec.decodeMessage({ seq: Number(row.seq), body: row.body }, { in: tables.messages }));
  return { messages, total: Number(rows[0]!.total) };
}
