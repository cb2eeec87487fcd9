import type { RetentionDatabase, SqlStatement } from "./retention-database.js";
import { CATALOG_TABLE, type TableCoverage } from "./table-coverage.js";

/** Builds one statement: each value becomes the next placeholder of the database's dialect. */
export class StatementBuilder {
  readonly params: unknown[] = [];
  constructor(private readonly db: RetentionDatabase) {}

  /** A text value's placeholder (typed on PostgreSQL, where a bare `SELECT $1` has no type). */
  text(value: string): string {
    this.params.push(value);
    const placeholder = this.db.param(this.params.length);
    return this.db.dialect === "postgres" ? `${placeholder}::text` : placeholder;
  }
  number(value: number): string {
    this.params.push(value);
    return this.db.param(this.params.length);
  }
  table(name: string): string {
    return `${this.db.prefix}${name}`;
  }
  statement(sql: string): SqlStatement {
    return { sql, params: this.params };
  }
}

/** The conversation's session id and its sub-agents' (sessions whose parent chain leads to it). */
function family(b: StatementBuilder, c: TableCoverage, id: string): string {
  if (!c.sessions) return `SELECT ${b.text(id)}`;
  return `WITH RECURSIVE family(id) AS (
      SELECT ${b.text(id)} UNION SELECT s.session_id FROM ${b.table("glove_sessions")} s JOIN family f ON s.parent_id = f.id)
    SELECT id FROM family`;
}

/** True while a question of the conversation (or of one of its sub-agents) waits for an answer. */
function pendingQuestion(b: StatementBuilder, c: TableCoverage, id: string): string {
  if (!c.waits) return "FALSE";
  return `EXISTS (SELECT 1 FROM ${b.table("glove_waits")} WHERE status = 'pending' AND session_id IN (${family(b, c, id)}))`;
}

/** The catalog row as it was read, still without a running turn or a pending question. */
function unchangedAndSettled(b: StatementBuilder, c: TableCoverage, row: CatalogRow): string {
  return `id = ${b.text(row.id)} AND updated_at = ${b.text(row.updatedAt)} AND running_turn_id IS NULL
    AND NOT ${pendingQuestion(b, c, row.id)}`;
}

/** What retention reads of a catalog row. */
export interface CatalogRow {
  id: string;
  agent: string;
  updatedAt: string;
  runningTurnId: string | null;
}

/** The next `limit` catalog rows after `after` (by id): retention's cursor over every conversation. */
export function catalogPage(db: RetentionDatabase, after: string, limit: number): SqlStatement {
  const b = new StatementBuilder(db);
  return b.statement(
    `SELECT id, agent, updated_at, running_turn_id FROM ${b.table(CATALOG_TABLE)} WHERE id > ${b.text(after)} ORDER BY id LIMIT ${b.number(limit)}`,
  );
}

/** The ids of `owner`'s conversations (the purge deletes them page by page). */
export function ownerPage(db: RetentionDatabase, owner: string, limit: number): SqlStatement {
  const b = new StatementBuilder(db);
  return b.statement(
    `SELECT id FROM ${b.table(CATALOG_TABLE)} WHERE owner = ${b.text(owner)} ORDER BY id LIMIT ${b.number(limit)}`,
  );
}

/** Every row of one conversation in every covered table (session tables through its sub-agent family). */
export function conversationRows(db: RetentionDatabase, c: TableCoverage, id: string): SqlStatement[] {
  return [
    ...c.conversationTables.map((table) => {
      const b = new StatementBuilder(db);
      return b.statement(`DELETE FROM ${b.table(table)} WHERE conversation_id = ${b.text(id)}`);
    }),
    ...c.sessionTables.map((table) => {
      const b = new StatementBuilder(db);
      return b.statement(`DELETE FROM ${b.table(table)} WHERE session_id IN (${family(b, c, id)})`);
    }),
  ];
}

/** The guard of an inactive conversation's deletion: its catalog row, only if unchanged since read and idle. */
export function deleteIdleCatalogRow(db: RetentionDatabase, c: TableCoverage, row: CatalogRow): SqlStatement {
  const b = new StatementBuilder(db);
  return b.statement(`DELETE FROM ${b.table(CATALOG_TABLE)} WHERE ${unchangedAndSettled(b, c, row)}`);
}

/** The purge's catalog row: unconditionally. */
export function deleteCatalogRow(db: RetentionDatabase, id: string): SqlStatement {
  const b = new StatementBuilder(db);
  return b.statement(`DELETE FROM ${b.table(CATALOG_TABLE)} WHERE id = ${b.text(id)}`);
}

/**
 * The guard of a prune: touches the catalog row (a no-op update that locks it on PostgreSQL until
 * the prune commits, so a turn starting meanwhile waits) only if it is unchanged and idle.
 */
export function lockIdleCatalogRow(db: RetentionDatabase, c: TableCoverage, row: CatalogRow): SqlStatement {
  const b = new StatementBuilder(db);
  return b.statement(
    `UPDATE ${b.table(CATALOG_TABLE)} SET updated_at = updated_at WHERE ${unchangedAndSettled(b, c, row)}`,
  );
}

/** Settled questions and recorded steps settled before `cutoff` (ISO), of the conversation and its sub-agents. */
export function settledWaitsBefore(db: RetentionDatabase, c: TableCoverage, id: string, cutoff: string): SqlStatement {
  const b = new StatementBuilder(db);
  return b.statement(
    `DELETE FROM ${b.table("glove_waits")} WHERE status <> 'pending' AND COALESCE(settled_at, created_at)${db.collate} < ${b.text(cutoff)}
      AND session_id IN (${family(b, c, id)})`,
  );
}

/** Set-aside branches of the conversation's session beyond the newest `keep`. */
export function branchesBeyond(db: RetentionDatabase, id: string, keep: number): SqlStatement {
  const b = new StatementBuilder(db);
  const table = b.table("glove_branches");
  const session = b.text(id);
  return b.statement(
    `DELETE FROM ${table} WHERE session_id = ${session} AND position <=
      (SELECT position FROM ${table} WHERE session_id = ${b.text(id)} ORDER BY position DESC LIMIT 1 OFFSET ${b.number(keep)})`,
  );
}

/** Traces of turns started before `cutoff`, except the running turn's. */
export function tracesBefore(db: RetentionDatabase, row: CatalogRow, cutoff: string): SqlStatement {
  const b = new StatementBuilder(db);
  const running = row.runningTurnId === null ? "" : ` AND turn_id <> ${b.text(row.runningTurnId)}`;
  return b.statement(
    `DELETE FROM ${b.table("gloveserver_turn_traces")} WHERE conversation_id = ${b.text(row.id)} AND started_at${db.collate} < ${b.text(cutoff)}${running}`,
  );
}
