/**
 * Tables of glove-sqlite / glove-postgres that hold one conversation's data, by session_id. The
 * purge opens a store first, so a database from an older version has them all (glove_waits came
 * with schema version 2, glove_branches with 3).
 */
export const SESSION_TABLES = [
  "glove_messages",
  "glove_branches",
  "glove_tasks",
  "glove_permissions",
  "glove_inbox",
  "glove_waits",
  "glove_sessions",
];

/**
 * Statements that delete a conversation and its sub-agent stores (sessions whose parent chain
 * leads to it). `prefix` is "" for SQLite or "<schema>." for PostgreSQL; `param` the placeholder.
 */
export function purgeStatements(prefix: string, param: string): string[] {
  const family = `WITH RECURSIVE family(id) AS (
      SELECT ${param} UNION SELECT s.session_id FROM ${prefix}glove_sessions s JOIN family f ON s.parent_id = f.id)
    SELECT id FROM family`;
  return SESSION_TABLES.map((table) => `DELETE FROM ${prefix}${table} WHERE session_id IN (${family})`);
}
