import { RetentionError } from "./retention-error.js";
import type { TableColumns } from "./retention-database.js";

/** The catalog table: one row per conversation, with its owner and agent. */
export const CATALOG_TABLE = "gloveserver_conversations";

/**
 * Tables of Glove's that hold nothing of any conversation or owner, or that the purge keeps on
 * purpose, with the reason. Every other `glove_` / `gloveserver_` table must have a `session_id`
 * or `conversation_id` column: that is how retention finds a conversation's rows in it.
 */
export const EXEMPT_TABLES: Readonly<Record<string, string>> = {
  glove_schema_version: "the schema version of glove-sqlite / glove-postgres: no conversation data",
  gloveserver_turn_fences:
    "writer numbers per conversation id (scale mode): no content and no owner; they must only grow for an id, and a deleted row would start them again at 1, which a worker still in flight could match",
};

/** How retention reaches each table's rows of one conversation. */
export interface TableCoverage {
  /** Tables keyed by a store's session id: the conversation's and its sub-agents' (parent chain in glove_sessions). */
  sessionTables: string[];
  /** Tables keyed by the conversation id. */
  conversationTables: string[];
  /** Whether the catalog exists (a fresh PostgreSQL schema has none until the first conversation). */
  catalog: boolean;
  /** Whether glove_sessions exists (sub-agent stores are found through it). */
  sessions: boolean;
  /** Whether glove_waits exists (pending questions protect a conversation). */
  waits: boolean;
  branches: boolean;
  traces: boolean;
}

/**
 * Classifies every table of Glove's by its columns, as the database lists them: a table added
 * later is covered as soon as it has a session_id or conversation_id column, and one with neither
 * (and not exempt) refuses the run before anything is deleted.
 */
export function tableCoverage(tables: readonly TableColumns[]): TableCoverage {
  const coverage: TableCoverage = {
    sessionTables: [],
    conversationTables: [],
    catalog: false,
    sessions: false,
    waits: false,
    branches: false,
    traces: false,
  };
  const names = new Set(tables.map((t) => t.name));
  for (const { name, columns } of tables) {
    if (name === CATALOG_TABLE || name in EXEMPT_TABLES) continue;
    if (columns.includes("session_id")) coverage.sessionTables.push(name);
    else if (columns.includes("conversation_id")) coverage.conversationTables.push(name);
    else
      throw new RetentionError(
        `Retention cannot tell which conversation the rows of table ${name} belong to, so it deleted nothing. Give the table a session_id or conversation_id column, or list it in EXEMPT_TABLES (src/retention/table-coverage.ts) with the reason it holds no conversation data.`,
      );
  }
  // Children before their sessions row: the family query reads glove_sessions, so it goes last.
  coverage.sessionTables.sort((a, b) => Number(a === "glove_sessions") - Number(b === "glove_sessions"));
  coverage.catalog = names.has(CATALOG_TABLE);
  coverage.sessions = names.has("glove_sessions");
  coverage.waits = names.has("glove_waits");
  coverage.branches = names.has("glove_branches");
  coverage.traces = names.has("gloveserver_turn_traces");
  return coverage;
}
