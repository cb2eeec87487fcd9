import type { RetentionDatabase } from "../../../src/index.js";

/** The session ids of a conversation and its sub-agents, read from glove_sessions' parent chain. */
export async function familyIds(db: RetentionDatabase, id: string): Promise<string[]> {
  const p = db.param(1);
  const cast = db.dialect === "postgres" ? "::text" : "";
  const rows = await db.all({
    sql: `WITH RECURSIVE family(id) AS (SELECT ${p}${cast} UNION SELECT s.session_id FROM ${db.prefix}glove_sessions s JOIN family f ON s.parent_id = f.id) SELECT id FROM family`,
    params: [id],
  });
  return rows.map((row) => String(row.id));
}

/**
 * Rows naming any of `ids` in every table of Glove's the database lists, by table (tables with none
 * left out): by session_id, conversation_id, or the catalog's id.
 */
export async function rowsNaming(db: RetentionDatabase, ids: string[]): Promise<Record<string, number>> {
  const found: Record<string, number> = {};
  for (const { name, columns } of await db.tables()) {
    const column =
      ["session_id", "conversation_id"].find((c) => columns.includes(c)) ??
      (name === "gloveserver_conversations" ? "id" : undefined);
    if (!column) continue;
    const list = ids.map((_, i) => db.param(i + 1)).join(", ");
    const [row] = await db.all({
      sql: `SELECT COUNT(*) AS n FROM ${db.prefix}${name} WHERE ${column} IN (${list})`,
      params: ids,
    });
    const n = Number(row!.n);
    if (n > 0) found[name] = n;
  }
  return found;
}
