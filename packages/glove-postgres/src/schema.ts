import type { PoolClient } from "pg";
import { PostgresStoreError } from "./errors.js";

/** One schema step; `s` is the quoted schema name. Steps run in one transaction; never edit a shipped step. */
interface Migration {
  version: number;
  description: string;
  statements: (s: string) => string[];
}

export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    description: "sessions, messages, tasks, permissions, inbox",
    statements: (s) => [
      `CREATE TABLE ${s}.glove_sessions (
        session_id TEXT PRIMARY KEY,
        parent_id TEXT,
        namespace TEXT,
        durable BOOLEAN,
        message_count INTEGER NOT NULL DEFAULT 0,
        last_compaction_seq INTEGER,
        tokens_in BIGINT NOT NULL DEFAULT 0,
        tokens_out BIGINT NOT NULL DEFAULT 0,
        turns INTEGER NOT NULL DEFAULT 0,
        created_at TIMESTAMPTZ NOT NULL DEFAULT now()
      )`,
      `CREATE TABLE ${s}.glove_messages (
        session_id TEXT NOT NULL,
        seq INTEGER NOT NULL,
        is_compaction BOOLEAN NOT NULL DEFAULT false,
        body TEXT NOT NULL,
        created_at TIMESTAMPTZ NOT NULL DEFAULT now(),
        PRIMARY KEY (session_id, seq)
      )`,
      `CREATE TABLE ${s}.glove_tasks (
        session_id TEXT NOT NULL,
        task_id TEXT NOT NULL,
        position INTEGER NOT NULL,
        content TEXT NOT NULL,
        active_form TEXT NOT NULL,
        status TEXT NOT NULL CHECK (status IN ('pending', 'in_progress', 'completed')),
        PRIMARY KEY (session_id, task_id)
      )`,
      `CREATE TABLE ${s}.glove_permissions (
        session_id TEXT NOT NULL,
        tool_name TEXT NOT NULL,
        status TEXT NOT NULL CHECK (status IN ('granted', 'denied', 'unset')),
        PRIMARY KEY (session_id, tool_name)
      )`,
      `CREATE TABLE ${s}.glove_inbox (
        session_id TEXT NOT NULL,
        item_id TEXT NOT NULL,
        position INTEGER NOT NULL,
        tag TEXT NOT NULL,
        request TEXT NOT NULL,
        response TEXT,
        status TEXT NOT NULL CHECK (status IN ('pending', 'resolved', 'consumed')),
        blocking BOOLEAN NOT NULL,
        created_at TEXT NOT NULL,
        resolved_at TEXT,
        PRIMARY KEY (session_id, item_id)
      )`,
      `CREATE INDEX glove_inbox_by_status ON ${s}.glove_inbox (session_id, status, position)`,
    ],
  },
];

export const SCHEMA_VERSION = MIGRATIONS.at(-1)!.version;

/** `name` quoted as an identifier, after checking it is a plain one (identifiers cannot be bind parameters). */
export function quoteSchema(name: string): string {
  if (!/^[A-Za-z_][A-Za-z0-9_]{0,62}$/.test(name)) {
    throw new TypeError(`PostgresStore: schema ${JSON.stringify(name)} must be a plain identifier (letters, digits, _; at most 63).`);
  }
  return `"${name}"`;
}

/**
 * Brings `schema` to `SCHEMA_VERSION` under a transaction-scoped advisory lock, so processes
 * starting together migrate once. A newer or unreadable version is refused with an error naming
 * the session; nothing is changed or deleted.
 */
export async function migrate(client: PoolClient, schema: string, sessionId: string): Promise<void> {
  const s = quoteSchema(schema);
  await client.query("BEGIN");
  try {
    await client.query("SELECT pg_advisory_xact_lock(hashtext($1))", [`glove-schema:${schema}`]);
    await client.query(`CREATE SCHEMA IF NOT EXISTS ${s}`);
    const exists = await client.query<{ t: string | null }>("SELECT to_regclass($1)::text AS t", [`${s}.glove_schema_version`]);
    let current = 0;
    if (exists.rows[0]?.t) {
      const rows = (await client.query<{ version: unknown }>(`SELECT version FROM ${s}.glove_schema_version`)).rows;
      const version = rows[0]?.version;
      if (rows.length !== 1 || typeof version !== "number" || !Number.isInteger(version) || version < 0) {
        throw new PostgresStoreError(
          sessionId,
          `the schema version table of schema ${schema} is unreadable (${rows.length} rows, version ${JSON.stringify(version)}). ` +
            `Nothing was changed; restore glove_schema_version to one row with the right version.`,
          "GLOVE_STORE_SCHEMA",
        );
      }
      current = version;
    } else {
      const stray = await client.query<{ table_name: string }>(
        "SELECT table_name FROM information_schema.tables WHERE table_schema = $1 AND table_name LIKE 'glove\\_%' ORDER BY table_name",
        [schema],
      );
      if (stray.rows.length > 0) {
        throw new PostgresStoreError(
          sessionId,
          `schema ${schema} has Glove tables (${stray.rows.map((r) => r.table_name).join(", ")}) but no glove_schema_version table, ` +
            `so its schema version is unknown. Nothing was changed.`,
          "GLOVE_STORE_SCHEMA",
        );
      }
      await client.query(`CREATE TABLE ${s}.glove_schema_version (version INTEGER NOT NULL)`);
      await client.query(`INSERT INTO ${s}.glove_schema_version (version) VALUES ($1)`, [0]);
    }
    if (current > SCHEMA_VERSION) {
      throw new PostgresStoreError(
        sessionId,
        `schema ${schema} has schema version ${current}, newer than this glove-postgres supports (${SCHEMA_VERSION}). ` +
          `It was written by a newer glove-postgres: upgrade this one. Nothing was changed.`,
        "GLOVE_STORE_SCHEMA",
      );
    }
    for (const migration of MIGRATIONS) {
      if (migration.version <= current) continue;
      for (const statement of migration.statements(s)) await client.query(statement);
      await client.query(`UPDATE ${s}.glove_schema_version SET version = $1`, [migration.version]);
    }
    await client.query("COMMIT");
  } catch (error) {
    await client.query("ROLLBACK").catch(() => {});
    throw error;
  }
}
