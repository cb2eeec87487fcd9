import type { SqliteDatabase } from "./driver/types.js";
import type { InboxItem, InboxItemUpdate, InboxRecord } from "glove-core";
import type { SqliteSession } from "./session.js";
import { statementsFor } from "./statement-cache.js";

const COLUMNS = "item_id, tag, request, response, status, blocking, created_at, resolved_at";

/** The session's inbox, in posting order (`position`); `blocking` is stored as 0/1. */
export class SqliteInbox {
  readonly #session: SqliteSession;
  readonly #s: ReturnType<typeof prepare>;

  constructor(session: SqliteSession) {
    this.#session = session;
    this.#s = statementsFor(session.db, prepare);
  }

  list(): InboxItem[] {
    return this.#decode(this.#s.list.all(this.#session.sessionId));
  }

  resolved(): InboxItem[] {
    return this.#decode(this.#s.byStatus.all(this.#session.sessionId, "resolved"));
  }

  add(item: InboxItem): void {
    const { id, tag, request, response, status, blocking, created_at, resolved_at } =
      this.#session.codec.checkInboxItem(item);
    this.#s.upsert.run({
      session_id: this.#session.sessionId,
      item_id: id,
      tag,
      request,
      response: response ?? null,
      status,
      blocking: blocking === true ? 1 : 0,
      created_at,
      resolved_at: resolved_at ?? null,
    });
  }

  /** Changes status, response and resolved_at only; another process may call it on the same database. */
  update(itemId: string, updates: InboxItemUpdate): void {
    this.#session.codec.checkId("inbox item", itemId);
    const { status, response, resolved_at } = this.#session.codec.checkInboxUpdate(updates);
    const result = this.#s.update.run({
      session_id: this.#session.sessionId,
      item_id: itemId,
      set_status: status === undefined ? 0 : 1,
      status: status ?? null,
      set_response: response === undefined ? 0 : 1,
      response: response ?? null,
      set_resolved_at: resolved_at === undefined ? 0 : 1,
      resolved_at: resolved_at ?? null,
    });
    if (result.changes === 0) throw this.#session.codec.missingInboxItem(itemId);
  }

  /** Resolved → consumed in one conditional UPDATE: of any number of processes, the first claim wins. */
  consume(itemId: string): boolean {
    this.#session.codec.checkId("inbox item", itemId);
    if (this.#s.consume.run(this.#session.sessionId, itemId).changes === 1) return true;
    if (!this.#s.exists.get(this.#session.sessionId, itemId)) throw this.#session.codec.missingInboxItem(itemId);
    return false;
  }

  #decode(rows: unknown[]): InboxItem[] {
    return (rows as InboxRecord[]).map((row) => this.#session.codec.decodeInboxItem(row));
  }
}

function prepare(db: SqliteDatabase) {
  return {
    list: db.prepare(`SELECT ${COLUMNS} FROM glove_inbox WHERE session_id = ? ORDER BY position`),
    byStatus: db.prepare(`SELECT ${COLUMNS} FROM glove_inbox WHERE session_id = ? AND status = ? ORDER BY position`),
    upsert: db.prepare(
      `INSERT INTO glove_inbox (session_id, item_id, position, tag, request, response, status, blocking, created_at, resolved_at)
       VALUES (@session_id, @item_id,
               (SELECT COALESCE(MAX(position) + 1, 0) FROM glove_inbox WHERE session_id = @session_id),
               @tag, @request, @response, @status, @blocking, @created_at, @resolved_at)
       ON CONFLICT (session_id, item_id) DO UPDATE SET
         tag = excluded.tag, request = excluded.request, response = excluded.response, status = excluded.status,
         blocking = excluded.blocking, created_at = excluded.created_at, resolved_at = excluded.resolved_at`,
    ),
    consume: db.prepare(
      `UPDATE glove_inbox SET status = 'consumed' WHERE session_id = ? AND item_id = ? AND status = 'resolved'`,
    ),
    exists: db.prepare(`SELECT 1 FROM glove_inbox WHERE session_id = ? AND item_id = ?`),
    update: db.prepare(
      `UPDATE glove_inbox SET
         status = CASE WHEN @set_status = 1 THEN @status ELSE status END,
         response = CASE WHEN @set_response = 1 THEN @response ELSE response END,
         resolved_at = CASE WHEN @set_resolved_at = 1 THEN @resolved_at ELSE resolved_at END
       WHERE session_id = @session_id AND item_id = @item_id`,
    ),
  };
}
