import type { SqliteDatabase } from "./driver/types.js";
import type { PermissionStatus } from "glove-core";
import type { SqliteSession } from "./session.js";
import { statementsFor } from "./statement-cache.js";

/** The session's tool permissions, one row per tool; no row means "unset". */
export class SqlitePermissions {
  readonly #session: SqliteSession;
  readonly #s: ReturnType<typeof prepare>;

  constructor(session: SqliteSession) {
    this.#session = session;
    this.#s = statementsFor(session.db, prepare);
  }

  get(toolName: string): PermissionStatus {
    const row = this.#s.get.get(this.#session.sessionId, this.#session.codec.checkToolName(toolName)) as
      { status: unknown } | undefined;
    return this.#session.codec.decodePermission(toolName, row?.status);
  }

  set(toolName: string, status: PermissionStatus): void {
    const { codec } = this.#session;
    this.#s.set.run(this.#session.sessionId, codec.checkToolName(toolName), codec.checkPermission(status));
  }
}

function prepare(db: SqliteDatabase) {
  return {
    get: db.prepare("SELECT status FROM glove_permissions WHERE session_id = ? AND tool_name = ?"),
    set: db.prepare(
      `INSERT INTO glove_permissions (session_id, tool_name, status) VALUES (?, ?, ?)
       ON CONFLICT (session_id, tool_name) DO UPDATE SET status = excluded.status`,
    ),
  };
}
