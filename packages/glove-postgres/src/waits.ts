import type { StoredWait, WaitFilter, WaitOutcome, WaitRecord, WaitSettlement } from "glove-core";
import { WAIT_COLUMNS } from "glove-core";
import type { PostgresSession } from "./session.js";

const COLUMNS = WAIT_COLUMNS.join(", ");

/**
 * The session's durable questions (glove_waits), in the order they were added (`seq`). A settle
 * is one conditional UPDATE … WHERE status = 'pending' RETURNING: of two processes settling one
 * wait, PostgreSQL lets exactly one change the row, so the first wins.
 */
export class PostgresWaits {
  readonly #session: PostgresSession;

  constructor(session: PostgresSession) {
    this.#session = session;
  }

  /** Inserts the wait unless its id is stored: a replay that adds again changes nothing. */
  async add(wait: StoredWait): Promise<void> {
    const row = this.#session.codec.encodeWait(wait);
    const params = WAIT_COLUMNS.map((_, i) => `$${i + 2}`).join(", ");
    await this.#session.query(
      `INSERT INTO ${this.#session.tables.waits} (session_id, ${COLUMNS}) VALUES ($1, ${params})
       ON CONFLICT (session_id, id) DO NOTHING`,
      [this.#session.sessionId, ...WAIT_COLUMNS.map((column) => row[column])],
    );
  }

  async settle(id: string, outcome: WaitOutcome): Promise<WaitSettlement> {
    const { codec, sessionId, tables } = this.#session;
    codec.checkId("wait", id);
    const { status, value_json, settled_at } = codec.encodeWaitOutcome(outcome);
    const won = await this.#session.query<WaitRecord>(
      `UPDATE ${tables.waits} SET status = $3, value_json = $4, settled_at = $5
       WHERE session_id = $1 AND id = $2 AND status = 'pending'
       RETURNING ${COLUMNS}`,
      [sessionId, id, status, value_json, settled_at],
    );
    if (won.rows[0]) return { won: true, wait: codec.decodeWait(won.rows[0]) };
    // Lost (or unknown): the wait as it stands now, settled by whoever won.
    const stored = await this.#session.query<WaitRecord>(
      `SELECT ${COLUMNS} FROM ${tables.waits} WHERE session_id = $1 AND id = $2`,
      [sessionId, id],
    );
    return { won: false, wait: stored.rows[0] && codec.decodeWait(stored.rows[0]) };
  }

  async list(filter?: WaitFilter): Promise<StoredWait[]> {
    const { status, toolCallId } = this.#session.codec.checkWaitFilter(filter);
    // A NULL filter value selects every row: one statement for the four filter combinations.
    const { rows } = await this.#session.query<WaitRecord>(
      `SELECT ${COLUMNS} FROM ${this.#session.tables.waits}
       WHERE session_id = $1 AND ($2::text IS NULL OR status = $2) AND ($3::text IS NULL OR tool_call_id = $3)
       ORDER BY seq`,
      [this.#session.sessionId, status ?? null, toolCallId ?? null],
    );
    return rows.map((row) => this.#session.codec.decodeWait(row));
  }
}
