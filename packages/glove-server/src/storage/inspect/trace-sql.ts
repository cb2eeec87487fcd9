import type { TurnTrace } from "./types.js";

/** What differs between SQLite and PostgreSQL for the trace table. */
export interface TraceDialect {
  /** The table, schema-qualified for PostgreSQL. */
  table: string;
  /** The placeholder of the n-th parameter, from 1. */
  param(n: number): string;
  /** ` COLLATE "C"` (PostgreSQL) so times order bytewise, or "". */
  collate: string;
}

/** The trace table: one row per (conversation, turn), the trace as JSON; newest-first reads are indexed. */
export function traceTableSql(d: TraceDialect, indexName: string): string[] {
  return [
    `CREATE TABLE IF NOT EXISTS ${d.table} (
      conversation_id TEXT NOT NULL, turn_id TEXT NOT NULL, started_at TEXT NOT NULL, status TEXT NOT NULL, body TEXT NOT NULL,
      PRIMARY KEY (conversation_id, turn_id))`,
    `CREATE INDEX IF NOT EXISTS ${indexName} ON ${d.table} (conversation_id, started_at${d.collate} DESC, turn_id${d.collate} DESC)`,
  ];
}

/** Statements of a trace store over that table. */
export function traceStatements(d: TraceDialect) {
  const p = d.param;
  const order = `started_at${d.collate} DESC, turn_id${d.collate} DESC`;
  const key = `(started_at${d.collate}, turn_id${d.collate})`;
  return {
    upsert: `INSERT INTO ${d.table} (conversation_id, turn_id, started_at, status, body) VALUES (${p(1)}, ${p(2)}, ${p(3)}, ${p(4)}, ${p(5)})
      ON CONFLICT (conversation_id, turn_id) DO UPDATE SET started_at = excluded.started_at, status = excluded.status, body = excluded.body`,
    /** Keeps the newest `$2` traces of conversation `$1`. */
    prune: `DELETE FROM ${d.table} WHERE conversation_id = ${p(1)} AND ${key} <
      (SELECT started_at${d.collate}, turn_id${d.collate} FROM ${d.table} WHERE conversation_id = ${p(1)} ORDER BY ${order} LIMIT 1 OFFSET ${p(2)})`,
    get: `SELECT body FROM ${d.table} WHERE conversation_id = ${p(1)} AND turn_id = ${p(2)}`,
    /** The newest `$2` of conversation `$1`. */
    list: `SELECT body FROM ${d.table} WHERE conversation_id = ${p(1)} ORDER BY ${order} LIMIT ${p(2)}`,
    /** The newest `$2` of conversation `$1` started before turn `$3`. */
    listBefore: `SELECT body FROM ${d.table} WHERE conversation_id = ${p(1)} AND ${key} <
      (SELECT started_at${d.collate}, turn_id${d.collate} FROM ${d.table} WHERE conversation_id = ${p(1)} AND turn_id = ${p(3)}) ORDER BY ${order} LIMIT ${p(2)}`,
    delete: `DELETE FROM ${d.table} WHERE conversation_id = ${p(1)}`,
  };
}

/** The row values of a trace for `upsert`. */
export function traceRow(trace: TurnTrace): [string, string, string, string, string] {
  return [trace.conversationId, trace.turnId, trace.startedAt, trace.status, JSON.stringify(trace)];
}
