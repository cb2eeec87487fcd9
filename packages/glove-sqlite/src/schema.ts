import type { Database } from "better-sqlite3";
import { SqliteStoreError } from "./errors.js";

/** One schema step. Steps run in order inside one IMMEDIATE transaction; never edit a shipped step. */
interface Migration {
  version: number;
  description: string;
  statements: string[];
}

export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    description: "sessions, messages, tasks, permissions, inbox",
    statements: [
      `CREATE TABLE glove_sessions (
        session_id TEXT PRIMARY KEY NOT NULL,
        parent_id TEXT,
        namespace TEXT,
        durable INTEGER,
        message_count INTEGER NOT NULL DEFAULT 0,
        last_compaction_seq INTEGER,
        tokens_in INTEGER NOT NULL DEFAULT 0,
        tokens_out INTEGER NOT NULL DEFAULT 0,
        turns INTEGER NOT NULL DEFAULT 0,
        created_at TEXT NOT NULL
      )`,
      `CREATE TABLE glove_messages (
        session_id TEXT NOT NULL,
        seq INTEGER NOT NULL,
        is_compaction INTEGER NOT NULL DEFAULT 0,
        body TEXT NOT NULL,
        created_at TEXT NOT NULL,
        PRIMARY KEY (session_id, seq)
      ) WITHOUT ROWID`,
      `CREATE TABLE glove_tasks (
        session_id TEXT NOT NULL,
        task_id TEXT NOT NULL,
        position INTEGER NOT NULL,
        content TEXT NOT NULL,
        active_form TEXT NOT NULL,
        status TEXT NOT NULL CHECK (status IN ('pending', 'in_progress', 'completed')),
        PRIMARY KEY (session_id, task_id)
      )`,
      `CREATE TABLE glove_permissions (
        session_id TEXT NOT NULL,
        tool_name TEXT NOT NULL,
        status TEXT NOT NULL CHECK (status IN ('granted', 'denied', 'unset')),
        PRIMARY KEY (session_id, tool_name)
      )`,
      `CREATE TABLE glove_inbox (
        session_id TEXT NOT NULL,
        item_id TEXT NOT NULL,
        position INTEGER NOT NULL,
        tag TEXT NOT NULL,
        request TEXT NOT NULL,
        response TEXT,
        status TEXT NOT NULL CHECK (status IN ('pending', 'resolved', 'consumed')),
        blocking INTEGER NOT NULL,
        created_at TEXT NOT NULL,
        resolved_at TEXT,
        PRIMARY KEY (session_id, item_id)
      )`,
      `CREATE INDEX glove_inbox_by_status ON glove_inbox (session_id, status, position)`,
    ],
  },
];

export const SCHEMA_VERSION = MIGRATIONS.at(-1)!.version;

/**
 * Brings the database to `SCHEMA_VERSION`. A newer or unreadable version is refused with an error
 * naming the session; nothing is changed or deleted. Safe when several processes open at once:
 * the check and the steps run in one IMMEDIATE (write-locked) transaction.
 */
export function migrate(db: Database, sessionId: string, where: string): void {
  db.transaction(() => {
    const hasVersionTable = db
      .prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?")
      .get("glove_schema_version");
    let current = 0;
    if (hasVersionTable) {
      const rows = db.prepare("SELECT version FROM glove_schema_version").all() as Array<{ version: unknown }>;
      const version = rows[0]?.version;
      if (rows.length !== 1 || typeof version !== "number" || !Number.isInteger(version) || version < 0) {
        throw new SqliteStoreError(
          sessionId,
          `the schema version table of ${where} is unreadable (${rows.length} rows, version ${JSON.stringify(version)}). ` +
            `Nothing was changed; restore glove_schema_version to one row with the right version.`,
          "GLOVE_STORE_SCHEMA",
        );
      }
      current = version;
    } else {
      const stray = db
        .prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE 'glove\\_%' ESCAPE '\\'")
        .all() as Array<{ name: string }>;
      if (stray.length > 0) {
        throw new SqliteStoreError(
          sessionId,
          `${where} has Glove tables (${stray.map((t) => t.name).join(", ")}) but no glove_schema_version table, ` +
            `so its schema version is unknown. Nothing was changed.`,
          "GLOVE_STORE_SCHEMA",
        );
      }
      db.prepare("CREATE TABLE glove_schema_version (version INTEGER NOT NULL)").run();
      db.prepare("INSERT INTO glove_schema_version (version) VALUES (?)").run(0);
    }
    if (current > SCHEMA_VERSION) {
      throw new SqliteStoreError(
        sessionId,
        `${where} has schema version ${current}, newer than this glove-sqlite supports (${SCHEMA_VERSION}). ` +
          `It was written by a newer glove-sqlite: upgrade this one. Nothing was changed.`,
        "GLOVE_STORE_SCHEMA",
      );
    }
    for (const migration of MIGRATIONS) {
      if (migration.version <= current) continue;
      for (const statement of migration.statements) db.prepare(statement).run();
      db.prepare("UPDATE glove_schema_version SET version = ?").run(migration.version);
    }
  }).immediate();
}
