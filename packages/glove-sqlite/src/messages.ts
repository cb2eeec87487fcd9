import type { Database } from "better-sqlite3";
import type { Message, MessageRecord } from "glove-core";
import { repairForInterruptedTools } from "glove-core";
import type { SqliteSession, SqliteSessionRow } from "./session.js";

/** The session's messages: one row each in glove_messages, numbered from 0 by `seq`. */
export class SqliteMessages {
  readonly #session: SqliteSession;
  readonly #row: SqliteSessionRow;
  readonly #repair: boolean;
  readonly #s: ReturnType<typeof prepare>;
  readonly #appendBatch: (msgs: Message[]) => void;

  constructor(session: SqliteSession, row: SqliteSessionRow, repairInterruptedToolCalls: boolean) {
    this.#session = session;
    this.#row = row;
    this.#repair = repairInterruptedToolCalls;
    this.#s = prepare(session.db);
    this.#appendBatch = session.db.transaction((msgs: Message[]) => this.#appendInTransaction(msgs)).immediate;
  }

  /** Every message from `seq` on, in order. */
  from(seq: number): Message[] {
    return (this.#s.from.all(this.#session.sessionId, seq) as MessageRecord[]).map((row) => this.#decode(row));
  }

  /** The last compaction summary and what follows (everything when there is none); one indexed range read. */
  sinceLastCompaction(): Message[] {
    return this.from(this.#row.read().last_compaction_seq ?? 0);
  }

  /** Appends a batch in one IMMEDIATE transaction, so batches from several processes never interleave. */
  append(msgs: Message[]): void {
    if (msgs.length > 0) this.#appendBatch(msgs);
  }

  #appendInTransaction(msgs: Message[]): void {
    const { sessionId, codec } = this.#session;
    const session = this.#row.read();
    let seq = session.message_count;
    let lastCompaction = session.last_compaction_seq;
    const rows: Message[] = [];
    if (this.#repair && seq > 0) {
      const tail = this.#s.at.get(sessionId, seq - 1) as MessageRecord | undefined;
      const repair = repairForInterruptedTools(tail ? this.#decode(tail) : undefined, msgs);
      if (repair) rows.push(repair);
    }
    rows.push(...msgs);
    const now = new Date().toISOString();
    for (const message of rows) {
      const body = codec.encodeMessage(message);
      if (message.is_compaction === true) lastCompaction = seq;
      this.#s.insert.run(sessionId, seq, message.is_compaction === true ? 1 : 0, body, now);
      seq += 1;
    }
    this.#row.setMessageCount(seq, lastCompaction);
  }

  #decode(row: MessageRecord): Message {
    return this.#session.codec.decodeMessage(row, { in: this.#session.where, table: "glove_messages" });
  }
}

function prepare(db: Database) {
  return {
    from: db.prepare("SELECT seq, body FROM glove_messages WHERE session_id = ? AND seq >= ? ORDER BY seq"),
    at: db.prepare("SELECT seq, body FROM glove_messages WHERE session_id = ? AND seq = ?"),
    insert: db.prepare("INSERT INTO glove_messages (session_id, seq, is_compaction, body, created_at) VALUES (?, ?, ?, ?, ?)"),
  };
}
