import type { SqliteDatabase } from "./driver/types.js";
import type { Message, MessagePageResult, MessageRecord, TokenConsumptionCounter } from "glove-core";
import { checkedPage, planAppendSync } from "glove-core";
import { SqliteStoreError } from "./errors.js";
import type { SqliteSession, SqliteSessionRow } from "./session.js";
import { statementsFor } from "./statement-cache.js";
import { immediateTransaction } from "./driver/transaction.js";

/** The session's messages: one row each in glove_messages, numbered from 0 by `seq`. */
export class SqliteMessages {
  readonly #session: SqliteSession;
  readonly #row: SqliteSessionRow;
  readonly #repair: boolean;
  readonly #s: ReturnType<typeof prepare>;
  readonly #appendBatch: (msgs: Message[], bodies: string[]) => void;
  readonly #recordCall: (msgs: Message[], bodies: string[], tokens: TokenConsumptionCounter) => void;

  constructor(session: SqliteSession, row: SqliteSessionRow, repairInterruptedToolCalls: boolean) {
    this.#session = session;
    this.#row = row;
    this.#repair = repairInterruptedToolCalls;
    this.#s = statementsFor(session.db, prepare);
    this.#appendBatch = immediateTransaction(session.db, (msgs: Message[], bodies: string[]) =>
      this.#appendInTransaction(msgs, bodies),
    );
    this.#recordCall = immediateTransaction(
      session.db,
      (msgs: Message[], bodies: string[], tokens: TokenConsumptionCounter) =>
        this.#appendInTransaction(msgs, bodies, tokens),
    );
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
   * Messages [offset, offset + limit) and the count, read only (no session row made): the same
   * answer as `readMessagePage`, on statements prepared once. A Glove's cached-view check reads a
   * one-message page on every model call, so preparing three statements per read showed (≈ 3 %).
   */
  page(offset: number, limit: number): MessagePageResult {
    const { sessionId } = this.#session;
    const [from, count] = checkedPage(
      offset,
      limit,
      (detail) => new SqliteStoreError(sessionId, detail, "GLOVE_STORE_INVALID"),
    );
    const row = this.#s.count.get(sessionId) as { message_count: number } | undefined;
    if (!row) return { messages: [], total: 0 };
    return { messages: this.#range(from, from + count), total: row.message_count };
  }

  /**
   * Appends a batch in one IMMEDIATE transaction, so batches from several processes never
   * interleave. The batch is checked and encoded now — a message no store accepts refuses the
   * whole batch (GLOVE_STORE_INVALID) before anything is written — and the returned write runs it
   * (at once, or at the end of the loop's turn with group commit; it holds its own copy of the list).
   */
  prepareAppend(msgs: Message[]): () => void {
    const bodies = this.#session.codec.encodeMessages(msgs);
    if (msgs.length === 0) return () => undefined;
    const batch = [...msgs];
    return () => this.#appendBatch(batch, bodies);
  }

  /**
   * A model call in one IMMEDIATE transaction: the batch as `prepareAppend` writes it, the tokens
   * and one turn, all or nothing. Tokens and messages are checked now, and the token total again
   * (past 2^53 − 1 is refused) against the row read inside the transaction.
   */
  prepareModelCall(msgs: Message[], tokens: TokenConsumptionCounter): () => void {
    const { codec } = this.#session;
    const checked = codec.checkTokens(tokens);
    const bodies = codec.encodeMessages(msgs);
    const batch = [...msgs];
    return () => this.#recordCall(batch, bodies, checked);
  }

  #appendInTransaction(msgs: Message[], bodies: string[], tokens?: TokenConsumptionCounter): void {
    const { sessionId, codec } = this.#session;
    const session = this.#row.read();
    if (tokens) codec.checkTokenTotal(session.tokens_in + session.tokens_out, tokens);
    let seq = session.message_count;
    let lastCompaction = session.last_compaction_seq;
    const now = new Date().toISOString();
    const insert = (message: Message, body: string) => {
      if (message.is_compaction === true) lastCompaction = seq;
      this.#s.insert.run(sessionId, seq, message.is_compaction === true ? 1 : 0, body, now);
      seq += 1;
    };
    if (this.#repair) {
      // The plan shared by every store (glove-core append-plan): aborted results first, or a conflict.
      const plan = planAppendSync({ count: seq, lastCompaction }, msgs, ({ from, to }) => this.#range(from, to));
      if (plan.late.length > 0) throw codec.lateResults(plan.late);
      if (plan.repair) insert(plan.repair, codec.encodeMessage(plan.repair));
    }
    msgs.forEach((message, i) => insert(message, bodies[i]!));
    if (tokens) this.#row.recordModelCall(seq, lastCompaction, tokens);
    else this.#row.setMessageCount(seq, lastCompaction);
  }

  /** Stored messages `from` ≤ seq < `to`, for the append plan. */
  #range(from: number, to: number): Message[] {
    return (this.#s.range.all(this.#session.sessionId, from, to) as MessageRecord[]).map((row) => this.#decode(row));
  }

  #decode(row: MessageRecord): Message {
    return this.#session.codec.decodeMessage(row, { in: this.#session.where, table: "glove_messages" });
  }
}

function prepare(db: SqliteDatabase) {
  return {
    from: db.prepare("SELECT seq, body FROM glove_messages WHERE session_id = ? AND seq >= ? ORDER BY seq"),
    range: db.prepare(
      "SELECT seq, body FROM glove_messages WHERE session_id = ? AND seq >= ? AND seq < ? ORDER BY seq",
    ),
    count: db.prepare("SELECT message_count FROM glove_sessions WHERE session_id = ?"),
    insert: db.prepare(
      "INSERT INTO glove_messages (session_id, seq, is_compaction, body, created_at) VALUES (?, ?, ?, ?, ?)",
    ),
  };
}
