import type { TokenConsumptionCounter } from "glove-core";
import type { PostgresSession } from "./session.js";

/** Token and turn counts, kept on the session's row; increments are atomic upserts. */
export class PostgresCounters {
  readonly #session: PostgresSession;

  constructor(session: PostgresSession) {
    this.#session = session;
  }

  async tokenCount(): Promise<number> {
    const row = await this.#session.readRow();
    return row.tokens_in + row.tokens_out;
  }

  async turnCount(): Promise<number> {
    return (await this.#session.readRow()).turns;
  }

  /**
   * Adds non-negative integer counts in one atomic upsert; refuses (GLOVE_STORE_INVALID) an add
   * that would take the session's total past 2^53 − 1, which would no longer read back exactly.
   */
  async addTokens(args: TokenConsumptionCounter): Promise<void> {
    const { codec, tables, sessionId } = this.#session;
    const { tokens_in, tokens_out } = codec.checkTokens(args);
    const { sessions } = tables;
    for (;;) {
      const { rowCount } = await this.#session.query(
        `INSERT INTO ${sessions} (session_id, tokens_in, tokens_out) VALUES ($1, $2, $3)
         ON CONFLICT (session_id) DO UPDATE SET
           tokens_in = ${sessions}.tokens_in + excluded.tokens_in,
           tokens_out = ${sessions}.tokens_out + excluded.tokens_out
         WHERE ${sessions}.tokens_in + ${sessions}.tokens_out + excluded.tokens_in + excluded.tokens_out <= ${Number.MAX_SAFE_INTEGER}`,
        [sessionId, tokens_in, tokens_out],
      );
      if (rowCount !== 0) return;
      // Refused by the WHERE: say so, unless another writer reset the counters since (then try again).
      codec.checkTokenTotal(await this.tokenCount(), { tokens_in, tokens_out });
    }
  }

  /** Refuses what `addTokens` would refuse now, writing nothing. */
  async checkTokens(args: TokenConsumptionCounter): Promise<void> {
    const checked = this.#session.codec.checkTokens(args);
    this.#session.codec.checkTokenTotal(await this.tokenCount(), checked);
  }

  async incrementTurn(): Promise<void> {
    const { sessions } = this.#session.tables;
    await this.#session.query(
      `INSERT INTO ${sessions} (session_id, turns) VALUES ($1, 1)
       ON CONFLICT (session_id) DO UPDATE SET turns = ${sessions}.turns + 1`,
      [this.#session.sessionId],
    );
  }

  async reset(): Promise<void> {
    await this.#session.query(
      `UPDATE ${this.#session.tables.sessions} SET tokens_in = 0, tokens_out = 0, turns = 0 WHERE session_id = $1`,
      [this.#session.sessionId],
    );
  }
}
