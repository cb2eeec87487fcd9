import type { Pool } from "pg";
import type { StoreAdapter } from "glove-core";
import { PostgresStore } from "./drivers.js";
import { createUnderLock } from "./pool-helpers.js";
import { TurnFencedError } from "../turn-fenced-error.js";
import type { TurnFence } from "../types.js";

/**
 * Writer numbers per conversation in `<schema>.gloveserver_turn_fences`. `take` bumps the row (its
 * lock waits for appends in flight, which read the row FOR SHARE); each append of a fenced store
 * re-reads the row (FOR SHARE) in the statement that locks its session row, and is refused once
 * the number is not its own. So after `take` returns, no earlier writer can store anything, and
 * what they stored is readable.
 */
export class PostgresTurnFence implements TurnFence {
  readonly #table: string;
  #ready: Promise<void> | undefined;

  constructor(private readonly pool: Pool, private readonly schema: string) {
    this.#table = `${schema}.gloveserver_turn_fences`;
  }

  async take(conversationId: string): Promise<number> {
    await this.#init();
    const { rows } = await this.pool.query<{ writer: string }>(
      `INSERT INTO ${this.#table} (conversation_id, writer) VALUES ($1, 1)
       ON CONFLICT (conversation_id) DO UPDATE SET writer = ${this.#table}.writer + 1 RETURNING writer`,
      [conversationId],
    );
    return Number(rows[0]!.writer);
  }

  async store(conversationId: string, writer: number, holds: () => boolean = () => true): Promise<StoreAdapter> {
    await this.#init();
    // Checked by the statement that locks the session's row in each write: no query of its own.
    const refuse = () => new TurnFencedError(conversationId);
    return PostgresStore.open({
      pool: this.pool,
      schema: this.schema,
      sessionId: conversationId,
      writerFence: { table: this.#table, keyColumn: "conversation_id", key: conversationId, writer, holds, refuse },
    });
  }

  #init(): Promise<void> {
    this.#ready ??= createUnderLock(this.pool, this.schema, [`CREATE TABLE IF NOT EXISTS ${this.#table} (conversation_id TEXT PRIMARY KEY, writer BIGINT NOT NULL)`]);
    this.#ready.catch(() => (this.#ready = undefined));
    return this.#ready;
  }
}
