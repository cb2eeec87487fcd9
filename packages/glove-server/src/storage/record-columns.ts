import { NO_STATS } from "../conversations/stats.js";
import type { ConversationChanges, ConversationRecord, ConversationStats } from "./types.js";

/** Column names of the catalog table, in record order (the SQL catalogs share them). */
export const CATALOG_COLUMNS = {
  id: "id",
  owner: "owner",
  agent: "agent",
  title: "title",
  createdAt: "created_at",
  updatedAt: "updated_at",
  eventIdsReserved: "event_ids_reserved",
  runningTurnId: "running_turn_id",
  runningTurnText: "running_turn_text",
  runningTurnBase: "running_turn_base",
  lastClientMessageId: "last_client_message_id",
  lastTurnId: "last_turn_id",
  lastTurnStatus: "last_turn_status",
} as const satisfies Record<Exclude<keyof ConversationRecord, "stats">, string>;

/**
 * The columns of `stats`, one per counter. Added to tables created before they existed
 * (`ADD COLUMN … DEFAULT 0`), so older conversations start from zero.
 */
export const STATS_COLUMNS = {
  turns: "turns",
  tokens_in: "tokens_in",
  tokens_out: "tokens_out",
} as const satisfies Record<keyof ConversationStats, string>;

type Row = Record<string, unknown>;

/** A catalog row as a record; numbers may arrive as strings (Postgres BIGINT). */
export function recordFromRow(row: Row): ConversationRecord {
  const text = (key: keyof typeof CATALOG_COLUMNS) => {
    const value = row[CATALOG_COLUMNS[key]];
    return value === null || value === undefined ? null : String(value);
  };
  return {
    id: String(row.id),
    owner: String(row.owner),
    agent: String(row.agent),
    title: text("title"),
    createdAt: String(row.created_at),
    updatedAt: String(row.updated_at),
    eventIdsReserved: Number(row.event_ids_reserved),
    runningTurnId: text("runningTurnId"),
    runningTurnText: text("runningTurnText"),
    runningTurnBase:
      row.running_turn_base === null || row.running_turn_base === undefined ? null : Number(row.running_turn_base),
    lastClientMessageId: text("lastClientMessageId"),
    lastTurnId: text("lastTurnId"),
    lastTurnStatus: text("lastTurnStatus") as ConversationRecord["lastTurnStatus"],
    stats: {
      turns: Number(row[STATS_COLUMNS.turns] ?? 0),
      tokens_in: Number(row[STATS_COLUMNS.tokens_in] ?? 0),
      tokens_out: Number(row[STATS_COLUMNS.tokens_out] ?? 0),
    },
  };
}

/**
 * Columns added after the catalog table first shipped, with their SQL type: tables created
 * before them get them at open (`ADD COLUMN`), older conversations start from the default.
 */
export const ADDED_COLUMNS: ReadonlyArray<{ column: string; sqlite: string; postgres: string }> = [
  ...Object.values(STATS_COLUMNS).map((column) => ({
    column,
    sqlite: "INTEGER NOT NULL DEFAULT 0",
    postgres: "BIGINT NOT NULL DEFAULT 0",
  })),
  { column: CATALOG_COLUMNS.lastTurnStatus, sqlite: "TEXT", postgres: "TEXT" },
  { column: CATALOG_COLUMNS.runningTurnText, sqlite: "TEXT", postgres: "TEXT" },
  { column: CATALOG_COLUMNS.runningTurnBase, sqlite: "INTEGER", postgres: "BIGINT" },
];

/** `[column, value]` pairs of the fields a change sets, in a fixed order; `stats` sets its three columns. */
export function changedColumns(changes: ConversationChanges): Array<[string, unknown]> {
  const pairs = (Object.keys(changes) as Array<keyof ConversationChanges>)
    .filter((key) => key in CATALOG_COLUMNS && changes[key] !== undefined)
    .map((key): [string, unknown] => [CATALOG_COLUMNS[key as keyof typeof CATALOG_COLUMNS], changes[key]]);
  const { stats } = changes;
  if (stats)
    for (const key of Object.keys(STATS_COLUMNS) as Array<keyof ConversationStats>)
      pairs.push([STATS_COLUMNS[key], stats[key]]);
  return pairs;
}

/** `[column, value]` pairs of a whole record, for its insert (stats start at zero). */
export function insertedColumns(record: ConversationRecord): Array<[string, unknown]> {
  const fields = Object.keys(CATALOG_COLUMNS) as Array<keyof typeof CATALOG_COLUMNS>;
  return [
    ...fields.map((key): [string, unknown] => [CATALOG_COLUMNS[key], record[key] ?? null]),
    ...changedColumns({ stats: record.stats ?? NO_STATS }),
  ];
}
