import type { Pool } from "pg";
import type { InboxFingerprints } from "../types.js";

/**
 * Inbox fingerprints of many conversations in one query: an md5 over every column of every item
 * (glove-postgres's `glove_inbox`), so any change a store can read changes it.
 */
export function postgresInboxFingerprints(pool: Pool, schema: string): InboxFingerprints {
  const sql = `SELECT session_id, md5(string_agg(row(item_id, position, tag, request, response, status, blocking, created_at, resolved_at)::text, ',' ORDER BY position, item_id)) AS print
    FROM ${schema}.glove_inbox WHERE session_id = ANY($1::text[]) GROUP BY session_id`;
  return async (conversationIds) => {
    const { rows } = await pool.query<{ session_id: string; print: string }>(sql, [conversationIds]);
    return new Map(rows.map((row) => [row.session_id, row.print]));
  };
}
