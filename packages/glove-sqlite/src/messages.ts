import type { Database } from "better-sqlite3";
import type { Message, MessageRecord } from "glove-core";
import { SqliteStoreError } from "./errors.js";
import { answeredCallIds, currentTurnStart, needsTurnWindow, repairForInterruptedTools, unexpectedToolResults } from "glove-core";
import type { SqliteSession, SqliteSessionRow } from "./session.js";

/** The session's messages: one row each in glove_messages, numbered from 0 by `seq`. */
export class SqliteMessages {
  readonly #session: SqliteSession;
  readonly #row: SqliteSessionRow;
  readonly #repair: boolean;
  readonly #s: ReturnType<typeof prepare>;
  readonly #appendBatch: (msgs: Message[], bodies: string[]) => void;

  constructor(session: SqliteSession, row: SqliteSessionRow, repairInterruptedToolCalls: boolean) {
    this.#session = session;
    this.#row = row;
    this.#repair = repairInterruptedToolCalls;
    this.#s = prepare(session.db);
    this.#appendBatch = session.db.transaction((msgs: Message[], bodies: string[]) => this.#appendInTransaction(msgs, bodies)).immediate;
  }

  /** Every message from `seq` on, in order. */
  from(seq: number): Message[] {
    return (this.#s.from.all(this.#session.sessionId, seq) as MessageRecord[]).map((row) => this.#decode(row));
  }

  /** The last compaction summary and what follows (everything when there is none); one indexed range read. */
  sinceLastCompaction(): Message[] {
    return this.from(this.#row.read().last_compaction_seq ?? 0);
  }

  /**
   * Appends a batch in one IMMEDIATE transaction, so batches from several processes never
   * interleave. The batch is checked and encoded first: a message no store accepts refuses the
   * whole batch (GLOVE_STORE_INVALID) before anything is written.
   */
  append(msgs: Message[]): void {
    const bodies = this.#session.codec.encodeMessages(msgs);
    if (msgs.length > 0) this.#appendBatch(msgs, bodies);
  }

  #appendInTransaction(msgs: Message[], bodies: string[]): void {
    const { sessionId, codec } = this.#session;
    const session = this.#row.read();
    let seq = session.message_count;
    let lastCompaction = session.last_compaction_seq;
    const now = new Date().toISOString();
    const insert = (message: Message, body: string) => {
      if (message.is_compaction === true) lastCompaction = seq;
      this.#s.insert.run(sessionId, seq, message.is_compaction === true ? 1 : 0, body, now);
      seq += 1;
    };
    if (this.#repair) {
      const recent = seq > 0 ? this.#currentTurn(seq, lastCompaction) : [];
      const repair = repairForInterruptedTools(recent, msgs);
      const unexpected = unexpectedToolResults(repair ? [...recent, repair] : recent, msgs);
      if (unexpected.length) {
        const answered = answeredCallIds(this.#storedTail(seq));
        const late = unexpected.filter((id) => answered.has(id));
        if (late.length) throw new SqliteStoreError(sessionId, `tool results for ${late.join(", ")} arrive after those calls were answered (another process took this conversation over and recorded them as interrupted). Nothing was written; reload the conversation.`, "GLOVE_STORE_CONFLICT");
      }
      if (repair) insert(repair, codec.encodeMessage(repair));
    }
    msgs.forEach((message, i) => insert(message, bodies[i]!));
    this.#row.setMessageCount(seq, lastCompaction);
  }

  /**
   * The stored end of the conversation for the repair check: just the last message when it is a
   * user's (the common case, one indexed read), else back to the last user turn.
   */
  #currentTurn(count: number, lastCompaction: number | null): Message[] {
    const { sessionId } = this.#session;
    const tail = this.#s.at.get(sessionId, count - 1) as MessageRecord | undefined;
    const last = tail ? this.#decode(tail) : undefined;
    if (!last || !needsTurnWindow(last)) return last ? [last] : [];
    const read = (from: number) => (this.#s.from.all(sessionId, from) as MessageRecord[]).map((row) => this.#decode(row));
    const recent = read(Math.max(0, count - TURN_WINDOW));
    if (currentTurnStart(recent) > 0 || count <= TURN_WINDOW) return recent;
    return read(lastCompaction ?? 0);
  }

  /** The last messages, where a result for a call of a recent turn would be. */
  #storedTail(count: number): Message[] {
    return (this.#s.from.all(this.#session.sessionId, Math.max(0, count - ANSWER_WINDOW)) as MessageRecord[]).map((row) => this.#decode(row));
  }

  #decode(row: MessageRecord): Message {
    return this.#session.codec.decodeMessage(row, { in: this.#session.where, table: "glove_messages" });
  }
}

/** Messages read back first when looking for the start of an interrupted turn. */
const TURN_WINDOW = 64;
/** Messages searched for an earlier answer when results arrive for calls no longer waiting. */
const ANSWER_WINDOW = 256;

function prepare(db: Database) {
  return {
    from: db.prepare("SELECT seq, body FROM glove_messages WHERE session_id = ? AND seq >= ? ORDER BY seq"),
    at: db.prepare("SELECT seq, body FROM glove_messages WHERE session_id = ? AND seq = ?"),
    insert: db.prepare("INSERT INTO glove_messages (session_id, seq, is_compaction, body, created_at) VALUES (?, ?, ?, ?, ?)"),
  };
}
