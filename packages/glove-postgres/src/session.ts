import { holdConnection } from "./held-connection.js";
import type { Pool, PoolClient } from "pg";
import type { RecordCodec, SessionRecord, SubStoreInfo } from "glove-core";
import { emptySessionRecord } from "glove-core";
import { PostgresStoreError } from "./errors.js";
import { migrateOnce, quoteSchema } from "./schema.js";
import { checkFenceHeld, fenceColumn, type WriterFence } from "./writer-fence.js";

/** What a PostgresSession needs; `tables` are those of `schema` (see `tableNames`). */
export interface PostgresSessionOptions {
  pool: Pool;
  schema: string;
  tables: TableNames;
  sessionId: string;
  codec: RecordCodec;
  /** Where a sub-store sits, recorded on its session row. */
  child?: SubStoreInfo;
}

/** Glove's tables in one schema, quoted for SQL text. */
export type TableNames = ReturnType<typeof tableNames>;

const SESSION_COLUMNS = "message_count, last_compaction_seq, tokens_in, tokens_out, turns";

/**
 * What every part of a PostgresStore works on: one session in one schema of a pool. Every query
 * waits for the schema migration (and a sub-store's row) first.
 */
export class PostgresSession {
  readonly pool: Pool;
  readonly sessionId: string;
  readonly tables: TableNames;
  readonly codec: RecordCodec;
  readonly #schema: string;
  readonly #child: SubStoreInfo | undefined;
  #ready: Promise<void> | undefined;

  constructor({ pool, schema, tables, sessionId, codec, child }: PostgresSessionOptions) {
    this.pool = pool;
    this.tables = tables;
    this.sessionId = sessionId;
    this.codec = codec;
    this.#schema = schema;
    this.#child = child;
  }

  /**
   * Migrates the schema (once per pool) and, for a sub-store, records its place (parent, namespace,
   * durability) on its session row. Idempotent; retried after a failure. A conversation's own row
   * is made by its first write (every write upserts it or locks it, recreating it when missing) and
   * every read takes a missing row as an empty session: opening a store costs no query of its own.
   */
  ready(): Promise<void> {
    this.#ready ??= this.#init().catch((error: unknown) => {
      this.#ready = undefined;
      throw error;
    });
    return this.#ready;
  }

  async #init(): Promise<void> {
    await migrateOnce(this.pool, this.#schema, this.sessionId);
    const child = this.#child;
    if (!child) return;
    await this.pool.query(
      `INSERT INTO ${this.tables.sessions} (session_id, parent_id, namespace, durable) VALUES ($1, $2, $3, $4)
       ON CONFLICT (session_id) DO NOTHING`,
      [this.sessionId, child.parentId, child.namespace, child.durable],
    );
  }

  async query<R extends object>(sql: string, params: unknown[]): Promise<{ rows: R[]; rowCount: number }> {
    await this.ready();
    const result = await this.pool.query(sql, params);
    return { rows: result.rows as R[], rowCount: result.rowCount ?? 0 };
  }

  /**
   * A transaction holding this session's row lock: writers of one session take turns. With a
   * `fence`, the same statement reads the writer fence and a replaced writer is refused before `fn`.
   */
  async transaction<T>(
    fn: (client: PoolClient, session: SessionRecord) => Promise<T>,
    fence?: WriterFence,
  ): Promise<T> {
    await this.ready();
    const client = await this.pool.connect();
    const lost = holdConnection(client);
    try {
      await client.query("BEGIN");
      try {
        const lock = `SELECT ${SESSION_COLUMNS}${fence ? `, ${fenceColumn(fence)}` : ""} FROM ${this.tables.sessions} WHERE session_id = $1 FOR UPDATE`;
        const params = fence ? [this.sessionId, fence.key] : [this.sessionId];
        let locked = await client.query(lock, params);
        if (locked.rows.length === 0) {
          // Missing before a conversation's first write (or when deleted since): made here, then locked.
          await client.query(
            `INSERT INTO ${this.tables.sessions} (session_id) VALUES ($1) ON CONFLICT (session_id) DO NOTHING`,
            [this.sessionId],
          );
          locked = await client.query(lock, params);
        }
        if (fence) checkFenceHeld(fence, locked.rows[0]);
        const result = await fn(client, this.#checkRow(locked.rows[0]));
        await client.query("COMMIT");
        return result;
      } catch (error) {
        await client.query("ROLLBACK").catch(() => {});
        throw error;
      }
    } finally {
      lost.release();
    }
  }

  /** The session's row (all zeros when it is missing). */
  async readRow(): Promise<SessionRecord> {
    const { rows } = await this.query<Record<string, unknown>>(
      `SELECT ${SESSION_COLUMNS} FROM ${this.tables.sessions} WHERE session_id = $1`,
      [this.sessionId],
    );
    return this.#checkRow(rows[0]);
  }

  /** The row as numbers: BIGINT token counts arrive as strings. */
  #checkRow(row: Record<string, unknown> | undefined): SessionRecord {
    if (!row) return emptySessionRecord();
    const tokensIn = Number(row.tokens_in);
    const tokensOut = Number(row.tokens_out);
    if (
      !Number.isSafeInteger(tokensIn) ||
      !Number.isSafeInteger(tokensOut) ||
      tokensIn < 0 ||
      tokensOut < 0 ||
      !Number.isSafeInteger(tokensIn + tokensOut)
    ) {
      throw new PostgresStoreError(
        this.sessionId,
        `the session row is corrupt: tokens ${String(row.tokens_in)}/${String(row.tokens_out)}. Nothing was changed.`,
        "GLOVE_STORE_CORRUPT",
      );
    }
    return { ...(row as unknown as SessionRecord), tokens_in: tokensIn, tokens_out: tokensOut };
  }
}

/** Glove's tables in `schema`, quoted for SQL text; throws a TypeError for a schema name that is not a plain identifier. */
export function tableNames(schema: string, who?: string) {
  const s = quoteSchema(schema, who);
  return {
    sessions: `${s}.glove_sessions`,
    messages: `${s}.glove_messages`,
    tasks: `${s}.glove_tasks`,
    permissions: `${s}.glove_permissions`,
    inbox: `${s}.glove_inbox`,
    waits: `${s}.glove_waits`,
    branches: `${s}.glove_branches`,
  };
}
