import type { Pool } from "pg";
import type { StoreAdapter } from "glove-core";
import { PostgresStore } from "./drivers.js";
import { createUnderLock } from "./pool-helpers.js";
import type { PostgresCatalog } from "./postgres-catalog.js";
import { recordFromRow } from "../record-columns.js";
import { TurnFencedError } from "../turn-fenced-error.js";
import type { ConversationRecord, TurnFence } from "../types.js";

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

  constructor(
    private readonly pool: Pool,
    private readonly schema: string,
    private readonly catalog: PostgresCatalog,
  ) {
    this.#table = `${schema}.gloveserver_turn_fences`;
  }

  async take(conversationId: string): Promise<number> {
    await this.#init();
    const { rows } = await this.pool.query<{ writer: string }>(`${this.#bump} RETURNING writer`, [conversationId]);
    return Number(rows[0]!.writer);
  }

  /** The bump and the catalog row in one statement (the row as of the statement's start, like a read of its own). */
  async takeWithRecord(conversationId: string): Promise<{ writer: number; record: ConversationRecord | undefined }> {
    await Promise.all([this.#init(), this.catalog.ready()]);
    const { rows } = await this.pool.query<Record<string, unknown>>(
      `WITH taken AS (${this.#bump} RETURNING writer)
       SELECT taken.writer AS glove_fence_writer, c.* FROM taken LEFT JOIN ${this.catalog.table} c ON c.id = $1`,
      [conversationId],
    );
    const row = rows[0]!;
    return {
      writer: Number(row.glove_fence_writer),
      record: row.id === null || row.id === undefined ? undefined : recordFromRow(row),
    };
  }

  get #bump(): string {
    return `INSERT INTO ${this.#table} (conversation_id, writer) VALUES ($1, 1)
       ON CONFLICT (conversation_id) DO UPDATE SET writer = ${this.#table}.writer + 1`;
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
    this.#ready ??= createUnderLock(this.pool, this.schema, [
      `CREATE TABLE IF NOT EXISTS ${this.#table} (conversation_id TEXT PRIMARY KEY, writer BIGINT NOT NULL)`,
    ]);
    this.#ready.catch(() => (this.#ready = undefined));
    return this.#ready;
  }
}
