import type { SchemaMigration } from "glove-core";

/** The schema steps, in order, given the quoted schema name `s`; they run in one transaction. Never edit a shipped step. */
export const MIGRATIONS: readonly SchemaMigration<(s: string) => string[]>[] = [
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
  {
    version: 2,
    description: "waits: durable questions and recorded steps",
    statements: (s) => [
      // seq: the order waits were added in, which getWaits returns.
      `CREATE TABLE ${s}.glove_waits (
        session_id TEXT NOT NULL,
        id TEXT NOT NULL,
        seq BIGINT GENERATED ALWAYS AS IDENTITY,
        kind TEXT NOT NULL CHECK (kind IN ('question', 'step')),
        tool_call_id TEXT NOT NULL,
        tool_name TEXT NOT NULL,
        position INTEGER NOT NULL,
        renderer TEXT NOT NULL,
        input_json TEXT,
        display_strategy TEXT,
        status TEXT NOT NULL CHECK (status IN ('pending', 'resolved', 'rejected', 'cancelled')),
        value_json TEXT,
        created_at TEXT NOT NULL,
        settled_at TEXT,
        PRIMARY KEY (session_id, id)
      )`,
      `CREATE INDEX glove_waits_by_status ON ${s}.glove_waits (session_id, status, seq)`,
      `CREATE INDEX glove_waits_by_call ON ${s}.glove_waits (session_id, tool_call_id, seq)`,
    ],
  },
  {
    version: 3,
    description: "branches: stretches set aside from the active branch (regenerate, edit, switch)",
    statements: (s) => [
      // position: the order stretches were added in, which getBranches returns.
      `CREATE TABLE ${s}.glove_branches (
        session_id TEXT NOT NULL,
        branch_id TEXT NOT NULL,
        position BIGINT GENERATED ALWAYS AS IDENTITY,
        at INTEGER NOT NULL,
        parent_id TEXT,
        body TEXT NOT NULL,
        created_at TIMESTAMPTZ NOT NULL DEFAULT now(),
        PRIMARY KEY (session_id, branch_id)
      )`,
      `CREATE INDEX glove_branches_by_position ON ${s}.glove_branches (session_id, position)`,
    ],
  },
];

/** The schema version this release writes; a database recorded at a newer one is refused. */
export const SCHEMA_VERSION = MIGRATIONS.at(-1)!.version;
