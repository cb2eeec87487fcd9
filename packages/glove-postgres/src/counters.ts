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

  async addTokens(args: TokenConsumptionCounter): Promise<void> {
    const { sessions } = this.#session.tables;
    await this.#session.query(
      `INSERT INTO ${sessions} (session_id, tokens_in, tokens_out) VALUES ($1, $2, $3)
       ON CONFLICT (session_id) DO UPDATE SET
         tokens_in = ${sessions}.tokens_in + excluded.tokens_in,
         tokens_out = ${sessions}.tokens_out + excluded.tokens_out`,
      [this.#session.sessionId, Math.trunc(args.tokens_in) || 0, Math.trunc(args.tokens_out) || 0],
    );
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
    await this.#session.query(`UPDATE ${this.#session.tables.sessions} SET tokens_in = 0, tokens_out = 0, turns = 0 WHERE session_id = $1`, [
      this.#session.sessionId,
    ]);
  }
}
