import type { CheckedQuery } from "./conversation-query.js";
import type { ConversationStatus } from "./types.js";

/** What differs between the SQLite and PostgreSQL listing queries. */
export interface CatalogDialect {
  /** The catalog table (schema-qualified for PostgreSQL). */
  catalog: string;
  /** glove_waits (schema-qualified), or null when the database has none yet. */
  waits: string | null;
  /** The placeholder of the n-th parameter, from 1. */
  param(n: number): string;
  /** The substring-position function: instr (SQLite) or strpos (PostgreSQL). */
  find: "instr" | "strpos";
  /** Appended to text compared or ordered, so both order bytewise: "" or ` COLLATE "C"`. */
  collate: string;
}

/** A statement and its parameters. */
export interface Statement {
  sql: string;
  params: unknown[];
}

/**
 * True when a stored question waits in the conversation's store or a durable subagent store below
 * it (session ids `<id>::<namespace>…`; an ephemeral one has `~` and ended with its process).
 * Uncorrelated, so the database reads the few pending questions once, not once per conversation;
 * it relies on conversation ids holding neither "::" nor "~" (the server's are UUIDs).
 */
function waitingSql(d: CatalogDialect): string {
  if (!d.waits) return "(1 = 0)";
  const cut = `${d.find}(w.session_id, '::')`;
  const root = `CASE WHEN ${cut} > 0 THEN substr(w.session_id, 1, ${cut} - 1) ELSE w.session_id END`;
  return `c.id IN (SELECT ${root} FROM ${d.waits} w WHERE w.kind = 'question' AND w.status = 'pending' AND ${d.find}(w.session_id, '~') = 0)`;
}

/** The status column of a listing row (see conversationStatus for the rule). */
export function statusSql(d: CatalogDialect): string {
  return `CASE WHEN ${waitingSql(d)} THEN 'waiting' WHEN c.running_turn_id IS NOT NULL THEN 'running'
    WHEN c.last_turn_status = 'error' THEN 'error' ELSE 'idle' END`;
}

function statusFilter(d: CatalogDialect, status: ConversationStatus): string {
  const waiting = waitingSql(d);
  switch (status) {
    case "waiting":
      return waiting;
    case "running":
      return `c.running_turn_id IS NOT NULL AND NOT ${waiting}`;
    case "error":
      return `c.running_turn_id IS NULL AND NOT ${waiting} AND c.last_turn_status = 'error'`;
    case "idle":
      return `c.running_turn_id IS NULL AND NOT ${waiting} AND (c.last_turn_status IS NULL OR c.last_turn_status <> 'error')`;
  }
}

/** The WHERE clause of the filters (not the cursor), with its parameters. */
function filters(d: CatalogDialect, q: CheckedQuery, params: unknown[]): string[] {
  const p = (value: unknown) => d.param(params.push(value));
  const where: string[] = [];
  if (q.text !== undefined) {
    const needle = p(q.text);
    where.push(
      `(${d.find}(lower(coalesce(c.title, '')), lower(${needle})) > 0 OR ${d.find}(lower(c.id), lower(${needle})) > 0)`,
    );
  }
  if (q.id !== undefined) where.push(`c.id = ${p(q.id)}`);
  if (q.agent !== undefined) where.push(`c.agent = ${p(q.agent)}`);
  if (q.owner !== undefined) where.push(`c.owner = ${p(q.owner)}`);
  if (q.updatedFrom !== undefined) where.push(`c.updated_at${d.collate} >= ${p(q.updatedFrom)}`);
  if (q.updatedTo !== undefined) where.push(`c.updated_at${d.collate} <= ${p(q.updatedTo)}`);
  if (q.status !== undefined) where.push(statusFilter(d, q.status));
  return where;
}

/** One page of the listing, newest first (limit + 1 rows: the extra one says whether a next page exists). */
export function pageStatement(d: CatalogDialect, q: CheckedQuery): Statement {
  const params: unknown[] = [];
  const where = filters(d, q, params);
  if (q.after) {
    const [updatedAt, id] = [d.param(params.push(q.after.updatedAt)), d.param(params.push(q.after.id))];
    where.push(`(c.updated_at${d.collate}, c.id${d.collate}) < (${updatedAt}${d.collate}, ${id}${d.collate})`);
  }
  const limit = d.param(params.push(q.limit + 1));
  const sql = `SELECT c.*, ${statusSql(d)} AS status FROM ${d.catalog} c
    ${where.length ? `WHERE ${where.join(" AND ")}` : ""}
    ORDER BY c.updated_at${d.collate} DESC, c.id${d.collate} DESC LIMIT ${limit}`;
  return { sql, params };
}

/** How many conversations match the filters and their token totals (columns n, tokens_in, tokens_out). */
export function totalsStatement(d: CatalogDialect, q: CheckedQuery): Statement {
  const params: unknown[] = [];
  const where = filters(d, q, params);
  const sql = `SELECT count(*) AS n, coalesce(sum(c.tokens_in), 0) AS tokens_in, coalesce(sum(c.tokens_out), 0) AS tokens_out
    FROM ${d.catalog} c ${where.length ? `WHERE ${where.join(" AND ")}` : ""}`;
  return { sql, params };
}
