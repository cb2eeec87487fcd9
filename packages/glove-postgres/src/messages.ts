import type { PoolClient } from "pg";
import type { Message, MessageRecord, SessionRecord, TokenConsumptionCounter } from "glove-core";
import { planAppend } from "glove-core";
import type { PostgresSession } from "./session.js";
import type { WriterFence } from "./writer-fence.js";

/** The session's messages: one row each in glove_messages, numbered from 0 by `seq`. */
export class PostgresMessages {
  readonly #session: PostgresSession;
  readonly #repair: boolean;
  /** Appends of this store, chained so they reach the database in call order. */
  #appendQueue: Promise<unknown> = Promise.resolve();

  readonly #beforeAppend: ((client: PoolClient) => Promise<void>) | undefined;
  readonly #fence: WriterFence | undefined;

  constructor(
    session: PostgresSession,
    repairInterruptedToolCalls: boolean,
    beforeAppend?: (client: PoolClient) => Promise<void>,
    fence?: WriterFence,
  ) {
    this.#session = session;
    this.#repair = repairInterruptedToolCalls;
    this.#beforeAppend = beforeAppend;
    this.#fence = fence;
  }

  async all(): Promise<Message[]> {
    const { rows } = await this.#session.query<MessageRecord>(
      `SELECT seq, body FROM ${this.#session.tables.messages} WHERE session_id = $1 ORDER BY seq`,
      [this.#session.sessionId],
    );
    return rows.map((row) => this.#decode(row));
  }

  /** The last compaction summary and what follows (everything when there is none); one indexed range read. */
  async sinceLastCompaction(): Promise<Message[]> {
    const { messages, sessions } = this.#session.tables;
    const { rows } = await this.#session.query<MessageRecord>(
      `SELECT m.seq, m.body FROM ${messages} m
       WHERE m.session_id = $1
         AND m.seq >= COALESCE((SELECT s.last_compaction_seq FROM ${sessions} s WHERE s.session_id = $1), 0)
       ORDER BY m.seq`,
      [this.#session.sessionId],
    );
    return rows.map((row) => this.#decode(row));
  }

  /**
   * Appends a batch in one transaction holding the session's row lock, after this store's earlier
   * appends. The batch is checked and encoded at once: a message no store accepts refuses the whole batch
   * (GLOVE_STORE_INVALID) before anything is written.
   */
  append(msgs: Message[]): Promise<void> {
    let encoded: string[];
    try {
      encoded = this.#session.codec.encodeMessages(msgs);
    } catch (error) {
      return Promise.reject(error);
    }
    if (msgs.length === 0) return Promise.resolve();
    return this.#queue(msgs, encoded, undefined);
  }

  /**
   * A model call in one transaction: the batch as `append` writes it (after `beforeAppend`, in
   * call order with this store's appends), its tokens and one turn, all or nothing. Tokens and
   * messages are checked first, and the token total against the locked row.
   */
  recordModelCall(msgs: Message[], tokens: TokenConsumptionCounter): Promise<void> {
    let checked: TokenConsumptionCounter;
    let encoded: string[];
    try {
      checked = this.#session.codec.checkTokens(tokens);
      encoded = this.#session.codec.encodeMessages(msgs);
    } catch (error) {
      return Promise.reject(error);
    }
    return this.#queue(msgs, encoded, checked);
  }

  #queue(msgs: Message[], encoded: string[], tokens: TokenConsumptionCounter | undefined): Promise<void> {
    const snapshot = msgs.slice();
    const run = this.#appendQueue.then(() =>
      this.#session.transaction(
        (client, row) => this.#appendLocked(client, row, snapshot, encoded, tokens),
        this.#fence,
      ),
    );
    this.#appendQueue = run.catch(() => {});
    return run;
  }

  async #appendLocked(
    client: PoolClient,
    session: SessionRecord,
    msgs: Message[],
    encoded: string[],
    tokens: TokenConsumptionCounter | undefined,
  ): Promise<void> {
    if (this.#beforeAppend) await this.#beforeAppend(client);
    const { sessionId, codec, tables } = this.#session;
    if (tokens) codec.checkTokenTotal(session.tokens_in + session.tokens_out, tokens);
    let seq = session.message_count;
    let lastCompaction = session.last_compaction_seq;
    const seqs: number[] = [];
    const flags: boolean[] = [];
    const bodies: string[] = [];
    const add = (message: Message, body: string) => {
      if (message.is_compaction === true) lastCompaction = seq;
      seqs.push(seq);
      flags.push(message.is_compaction === true);
      bodies.push(body);
      seq += 1;
    };
    if (this.#repair) {
      // The plan shared by every store (glove-core append-plan): aborted results first, or a conflict.
      const plan = await planAppend({ count: seq, lastCompaction }, msgs, ({ from, to }) =>
        this.#range(client, from, to),
      );
      if (plan.late.length > 0) throw codec.lateResults(plan.late);
      if (plan.repair) add(plan.repair, codec.encodeMessage(plan.repair));
    }
    msgs.forEach((message, i) => add(message, encoded[i]!));
    if (bodies.length > 0) {
      await client.query(
        `INSERT INTO ${tables.messages} (session_id, seq, is_compaction, body)
         SELECT $1, t.seq, t.is_compaction, t.body FROM unnest($2::int[], $3::boolean[], $4::text[]) AS t(seq, is_compaction, body)`,
        [sessionId, seqs, flags, bodies],
      );
    }
    if (!tokens) {
      await client.query(
        `UPDATE ${tables.sessions} SET message_count = $2, last_compaction_seq = $3 WHERE session_id = $1`,
        [sessionId, seq, lastCompaction],
      );
      return;
    }
    await client.query(
      `UPDATE ${tables.sessions} SET message_count = $2, last_compaction_seq = $3,
         tokens_in = tokens_in + $4, tokens_out = tokens_out + $5, turns = turns + 1
       WHERE session_id = $1`,
      [sessionId, seq, lastCompaction, tokens.tokens_in, tokens.tokens_out],
    );
  }

  /** Stored messages `from` ≤ seq < `to`, read in the append's transaction for the append plan. */
  async #range(client: PoolClient, from: number, to: number): Promise<Message[]> {
    const { sessionId, tables } = this.#session;
    const { rows } = await client.query<MessageRecord>(
      `SELECT seq, body FROM ${tables.messages} WHERE session_id = $1 AND seq >= $2 AND seq < $3 ORDER BY seq`,
      [sessionId, from, to],
    );
    return rows.map((row) => this.#decode(row));
  }

  #decode(row: MessageRecord): Message {
    return this.#session.codec.decodeMessage(row, { in: this.#session.tables.messages });
  }
}
