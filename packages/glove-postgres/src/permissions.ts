import type { PermissionStatus } from "glove-core";
import type { PostgresSession } from "./session.js";

/** The session's tool permissions, one row per tool; no row means "unset". */
export class PostgresPermissions {
  readonly #session: PostgresSession;

  constructor(session: PostgresSession) {
    this.#session = session;
  }

  async get(toolName: string): Promise<PermissionStatus> {
    const { rows } = await this.#session.query<{ status: unknown }>(
      `SELECT status FROM ${this.#session.tables.permissions} WHERE session_id = $1 AND tool_name = $2`,
      [this.#session.sessionId, this.#session.codec.checkToolName(toolName)],
    );
    return this.#session.codec.decodePermission(toolName, rows[0]?.status);
  }

  async set(toolName: string, status: PermissionStatus): Promise<void> {
    this.#session.codec.checkToolName(toolName);
    this.#session.codec.checkPermission(status);
    await this.#session.query(
      `INSERT INTO ${this.#session.tables.permissions} (session_id, tool_name, status) VALUES ($1, $2, $3)
       ON CONFLICT (session_id, tool_name) DO UPDATE SET status = excluded.status`,
      [this.#session.sessionId, toolName, status],
    );
  }
}
