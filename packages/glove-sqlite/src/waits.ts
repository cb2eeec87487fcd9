import type { SqliteDatabase } from "./driver/types.js";
import type { StoredWait, WaitFilter, WaitOutcome, WaitOutcomeRow, WaitRecord, WaitSettlement } from "glove-core";
import { WAIT_COLUMNS } from "glove-core";
import type { SqliteSession } from "./session.js";
import { statementsFor } from "./statement-cache.js";
import { immediateTransaction } from "./driver/transaction.js";

const COLUMNS = WAIT_COLUMNS.join(", ");

/**
 * The session's durable questions (glove_waits), in the order they were added (`seq`). A settle
 * is one conditional UPDATE … WHERE status = 'pending' inside an IMMEDIATE transaction, so of two
 * processes settling one wait exactly one changes the row: the first wins.
 */
export class SqliteWaits {
  readonly #session: SqliteSession;
  readonly #s: ReturnType<typeof prepare>;
  readonly #settle: (id: string, outcome: WaitOutcomeRow) => WaitSettlement;

  constructor(session: SqliteSession) {
    this.#session = session;
    this.#s = statementsFor(session.db, prepare);
    this.#settle = immediateTransaction(session.db, (id: string, outcome: WaitOutcomeRow): WaitSettlement => {
      const key = { session_id: session.sessionId, id };
      const won = this.#s.settle.get({ ...key, ...outcome }) as WaitRecord | undefined;
      if (won) return { won: true, wait: session.codec.decodeWait(won) };
      const stored = this.#s.get.get(key) as WaitRecord | undefined;
      return { won: false, wait: stored && session.codec.decodeWait(stored) };
    });
  }

  /** Inserts the wait unless its id is stored: a replay that adds again changes nothing. */
  add(wait: StoredWait): void {
    this.#s.insert.run({ session_id: this.#session.sessionId, ...this.#session.codec.encodeWait(wait) });
  }

  settle(id: string, outcome: WaitOutcome): WaitSettlement {
    this.#session.codec.checkId("wait", id);
    return this.#settle(id, this.#session.codec.encodeWaitOutcome(outcome));
  }

  list(filter?: WaitFilter): StoredWait[] {
    const { status, toolCallId } = this.#session.codec.checkWaitFilter(filter);
    const rows = this.#s.list.all({
      session_id: this.#session.sessionId,
      status: status ?? null,
      tool_call_id: toolCallId ?? null,
    }) as WaitRecord[];
    return rows.map((row) => this.#session.codec.decodeWait(row));
  }
}

function prepare(db: SqliteDatabase) {
  return {
    insert: db.prepare(
      `INSERT INTO glove_waits (session_id, ${COLUMNS}) VALUES (@session_id, ${WAIT_COLUMNS.map((c) => `@${c}`).join(", ")})
       ON CONFLICT (session_id, id) DO NOTHING`,
    ),
    settle: db.prepare(
      `UPDATE glove_waits SET status = @status, value_json = @value_json, settled_at = @settled_at
       WHERE session_id = @session_id AND id = @id AND status = 'pending'
       RETURNING ${COLUMNS}`,
    ),
    get: db.prepare(`SELECT ${COLUMNS} FROM glove_waits WHERE session_id = @session_id AND id = @id`),
    // A NULL filter value selects every row: one statement for the four filter combinations.
    list: db.prepare(
      `SELECT ${COLUMNS} FROM glove_waits
       WHERE session_id = @session_id AND (@status IS NULL OR status = @status) AND (@tool_call_id IS NULL OR tool_call_id = @tool_call_id)
       ORDER BY seq`,
    ),
  };
}
