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
export async function readMessagePage({ pool, schema = "glove", sessionId, offset, limit }: PostgresMessagePageOptions): Promise<MessagePageResult> {
  const invalid = (detail: string, code = "GLOVE_STORE_INVALID") => new PostgresStoreError(sessionId, detail, code);
  const [from, count] = checkedPage(offset, limit, invalid);
  const tables = tableNames(schema);
  const present = await pool.query<{ t: string | null }>("SELECT to_regclass($1)::text AS t", [tables.messages]);
  if (!present.rows[0]?.t) return { messages: [], total: 0 };
  const { rows } = await pool.query<MessageRecord & { total: string | null }>(
    `SELECT s.message_count AS total, m.seq, m.body FROM ${tables.sessions} s
     LEFT JOIN ${tables.messages} m ON m.session_id = s.session_id AND m.seq >= $2 AND m.seq < $3
     WHERE s.session_id = $1 ORDER BY m.seq`,
    [sessionId, from, from + count],
  );
  if (rows.length === 0) return { messages: [], total: 0 };
  const codec = createRecordCodec({ error: invalid, where: `schema ${schema}` });
  const messages = rows
    .filter((row) => row.body !== null)
    .map((row) => codec.decodeMessage({ seq: Number(row.seq), body: row.body }, { in: tables.messages }));
  return { messages, total: Number(rows[0]!.total) };
}
