import type { InboxItem, InboxItemUpdate, InboxRecord } from "glove-core";
import type { PostgresSession } from "./session.js";

const COLUMNS = "item_id, tag, request, response, status, blocking, created_at, resolved_at";

/** The session's inbox, in posting order (`position`). */
export class PostgresInbox {
  readonly #session: PostgresSession;

  constructor(session: PostgresSession) {
    this.#session = session;
  }

  async list(): Promise<InboxItem[]> {
    return this.#select("");
  }

  async resolved(): Promise<InboxItem[]> {
    return this.#select("AND status = 'resolved'");
  }

  async add(item: InboxItem): Promise<void> {
    const { id, tag, request, response, status, blocking, created_at, resolved_at } =
      this.#session.codec.checkInboxItem(item);
    const { inbox } = this.#session.tables;
    await this.#session.transaction(async (client) => {
      await client.query(
        `INSERT INTO ${inbox} (session_id, item_id, position, tag, request, response, status, blocking, created_at, resolved_at)
         VALUES ($1, $2, (SELECT COALESCE(MAX(position) + 1, 0) FROM ${inbox} WHERE session_id = $1), $3, $4, $5, $6, $7, $8, $9)
         ON CONFLICT (session_id, item_id) DO UPDATE SET
           tag = excluded.tag, request = excluded.request, response = excluded.response, status = excluded.status,
           blocking = excluded.blocking, created_at = excluded.created_at, resolved_at = excluded.resolved_at`,
        [this.#session.sessionId, id, tag, request, response, status, blocking, created_at, resolved_at],
      );
    });
  }

  /** Changes status, response and resolved_at only; any process on the same database may call it. */
  async update(itemId: string, updates: InboxItemUpdate): Promise<void> {
    this.#session.codec.checkId("inbox item", itemId);
    const { status, response, resolved_at } = this.#session.codec.checkInboxUpdate(updates);
    const { rowCount } = await this.#session.query(
      `UPDATE ${this.#session.tables.inbox} SET
         status = CASE WHEN $3 THEN $4 ELSE status END,
         response = CASE WHEN $5 THEN $6 ELSE response END,
         resolved_at = CASE WHEN $7 THEN $8 ELSE resolved_at END
       WHERE session_id = $1 AND item_id = $2`,
      [
        this.#session.sessionId,
        itemId,
        status !== undefined,
        status ?? null,
        response !== undefined,
        response ?? null,
        resolved_at !== undefined,
        resolved_at ?? null,
      ],
    );
    if (rowCount === 0) throw this.#session.codec.missingInboxItem(itemId);
  }

  /** Resolved → consumed in one conditional UPDATE: of any number of processes, the first claim wins. */
  async consume(itemId: string): Promise<boolean> {
    this.#session.codec.checkId("inbox item", itemId);
    const { inbox } = this.#session.tables;
    const { rowCount } = await this.#session.query(
      `UPDATE ${inbox} SET status = 'consumed' WHERE session_id = $1 AND item_id = $2 AND status = 'resolved'`,
      [this.#session.sessionId, itemId],
    );
    if (rowCount === 1) return true;
    const { rows } = await this.#session.query(`SELECT 1 FROM ${inbox} WHERE session_id = $1 AND item_id = $2`, [
      this.#session.sessionId,
      itemId,
    ]);
    if (rows.length === 0) throw this.#session.codec.missingInboxItem(itemId);
    return false;
  }

  /** The session's items matching `filter` (fixed SQL, never caller input). */
  async #select(filter: string): Promise<InboxItem[]> {
    const { rows } = await this.#session.query<InboxRecord>(
      `SELECT ${COLUMNS} FROM ${this.#session.tables.inbox}
       WHERE session_id = $1 ${filter} ORDER BY position`,
      [this.#session.sessionId],
    );
    return rows.map((row) => this.#session.codec.decodeInboxItem(row));
  }
}
