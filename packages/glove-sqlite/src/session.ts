import type { SqliteDatabase } from "./driver/types.js";
import type { RecordCodec, SessionRecord, SubStoreInfo, TokenConsumptionCounter } from "glove-core";
import { emptySessionRecord } from "glove-core";
import { SqliteStoreError } from "./errors.js";
import { statementsFor } from "./statement-cache.js";
import { immediateTransaction } from "./driver/transaction.js";

/** What every part of a SqliteStore works on: one session in one open database. */
export interface SqliteSession {
  readonly db: SqliteDatabase;
  readonly sessionId: string;
  /** The database, as named in errors ("SQLite database ./chat.db"). */
  readonly where: string;
  readonly codec: RecordCodec;
}

const INTEGER_COLUMNS = ["message_count", "tokens_in", "tokens_out", "turns"] as const;
const MAX_SAFE = Number.MAX_SAFE_INTEGER;

/** The session's row: created on open, read with integrity checks, and its counters. */
export class SqliteSessionRow {
  readonly #session: SqliteSession;
  readonly #s: ReturnType<typeof prepare>;
  readonly #addTokens: (tokensIn: number, tokensOut: number) => void;

  constructor(session: SqliteSession) {
    this.#session = session;
    this.#s = statementsFor(session.db, prepare);
    this.#addTokens = immediateTransaction(session.db, (tokensIn: number, tokensOut: number) =>
      this.#addTokensChecked(tokensIn, tokensOut),
    );
  }

  /** Creates the row when missing; `child` records where a sub-store sits. */
  ensure(child?: SubStoreInfo): void {
    this.#s.ensure.run({
      session_id: this.#session.sessionId,
      parent_id: child?.parentId ?? null,
      namespace: child?.namespace ?? null,
      durable: child ? (child.durable ? 1 : 0) : null,
      created_at: new Date().toISOString(),
    });
  }

  read(): SessionRecord {
    const { sessionId, where } = this.#session;
    const row = this.#s.read.get(sessionId) as SessionRecord | undefined;
    if (!row) {
      // Removed by hand while open: recreate it empty rather than fail every call.
      this.ensure();
      return emptySessionRecord();
    }
    for (const key of INTEGER_COLUMNS) {
      if (typeof row[key] !== "number" || !Number.isSafeInteger(row[key]) || row[key] < 0) {
        throw new SqliteStoreError(
          sessionId,
          `the session row in ${where} is corrupt: ${key} is ${JSON.stringify(row[key])}. Nothing was changed.`,
          "GLOVE_STORE_CORRUPT",
        );
      }
    }
    return row;
  }

  setMessageCount(count: number, lastCompactionSeq: number | null): void {
    this.#s.setMessageCount.run(count, lastCompactionSeq, this.#session.sessionId);
  }

  /**
   * Adds checked counts in one IMMEDIATE transaction; refuses (GLOVE_STORE_INVALID) an add that
   * would take the session's total past 2^53 − 1, so the counters always read back exactly.
   */
  addTokens(args: TokenConsumptionCounter): void {
    const { tokens_in, tokens_out } = this.#session.codec.checkTokens(args);
    // Every model call adds tokens: one statement where the row passes `read`'s checks and the
    // total stays in range (the statement is atomic, as the transaction is); anything else takes
    // the checked transaction, which recreates a missing row or refuses as before.
    if (
      this.#s.addTokensIfSound.run(tokens_in, tokens_out, this.#session.sessionId, tokens_in + tokens_out).changes === 1
    )
      return;
    this.#addTokens(tokens_in, tokens_out);
  }

  /** Refuses what `addTokens` would refuse now, writing nothing. */
  checkTokens(args: TokenConsumptionCounter): void {
    const checked = this.#session.codec.checkTokens(args);
    const row = this.read();
    this.#session.codec.checkTokenTotal(row.tokens_in + row.tokens_out, checked);
  }

  #addTokensChecked(tokensIn: number, tokensOut: number): void {
    const row = this.read();
    this.#session.codec.checkTokenTotal(row.tokens_in + row.tokens_out, { tokens_in: tokensIn, tokens_out: tokensOut });
    this.#s.addTokens.run(tokensIn, tokensOut, this.#session.sessionId);
  }

  /** A model call's end of the row: the new message count, its tokens and one more turn, in one statement. */
  recordModelCall(count: number, lastCompactionSeq: number | null, tokens: TokenConsumptionCounter): void {
    this.#s.recordModelCall.run(count, lastCompactionSeq, tokens.tokens_in, tokens.tokens_out, this.#session.sessionId);
  }

  incrementTurn(): void {
    this.#s.incrementTurn.run(this.#session.sessionId);
  }

  resetCounters(): void {
    this.#s.resetCounters.run(this.#session.sessionId);
  }
}

function prepare(db: SqliteDatabase) {
  return {
    ensure: db.prepare(
      `INSERT INTO glove_sessions (session_id, parent_id, namespace, durable, created_at)
       VALUES (@session_id, @parent_id, @namespace, @durable, @created_at)
       ON CONFLICT (session_id) DO NOTHING`,
    ),
    read: db.prepare(
      "SELECT message_count, last_compaction_seq, tokens_in, tokens_out, turns FROM glove_sessions WHERE session_id = ?",
    ),
    setMessageCount: db.prepare(
      "UPDATE glove_sessions SET message_count = ?, last_compaction_seq = ? WHERE session_id = ?",
    ),
    addTokens: db.prepare(
      "UPDATE glove_sessions SET tokens_in = tokens_in + ?, tokens_out = tokens_out + ? WHERE session_id = ?",
    ),
    addTokensIfSound: db.prepare(
      `UPDATE glove_sessions SET tokens_in = tokens_in + ?, tokens_out = tokens_out + ?
       WHERE session_id = ? AND ${INTEGER_COLUMNS.map((c) => `typeof(${c}) = 'integer' AND ${c} BETWEEN 0 AND ${MAX_SAFE}`).join(" AND ")}
         AND tokens_in + tokens_out <= ${MAX_SAFE} - ?`,
    ),
    recordModelCall: db.prepare(
      `UPDATE glove_sessions SET message_count = ?, last_compaction_seq = ?, tokens_in = tokens_in + ?, tokens_out = tokens_out + ?, turns = turns + 1
       WHERE session_id = ?`,
    ),
    incrementTurn: db.prepare("UPDATE glove_sessions SET turns = turns + 1 WHERE session_id = ?"),
    resetCounters: db.prepare(
      "UPDATE glove_sessions SET tokens_in = 0, tokens_out = 0, turns = 0 WHERE session_id = ?",
    ),
  };
}
