import { ConfigurationError } from "glove-core";
import type { Pool } from "pg";
import { createUnderLock } from "./pool-helpers.js";
import { ADDED_COLUMNS, changedColumns, insertedColumns, recordFromRow } from "../record-columns.js";
import type { ConversationCatalog, ConversationChanges, ConversationRecord } from "../types.js";

const SCHEMA_NAME = /^[a-z_][a-z0-9_]{0,62}$/;

/** The catalog in `<schema>.gloveserver_conversations`, safe for many server processes. */
export class PostgresCatalog implements ConversationCatalog {
  readonly #pool: Pool;
  readonly #table: string;
  #ready: Promise<void> | undefined;

  constructor(pool: Pool, schema: string) {
    if (typeof schema !== "string" || !SCHEMA_NAME.test(schema))
      throw new ConfigurationError(
        `PostgresCatalog: invalid PostgreSQL schema name ${JSON.stringify(schema)}. Pass lower-case letters, digits and underscores (at most 63, not starting with a digit), e.g. "glove". Nothing was changed.`,
      );
    this.#pool = pool;
    // Not "glove_…": glove-postgres refuses schemas with glove_ tables it did not create.
    this.#table = `${schema}.gloveserver_conversations`;
    this.#schema = schema;
  }
  readonly #schema: string;

  /** The catalog's table, schema-qualified (for statements that join it). */
  get table(): string {
    return this.#table;
  }

  /** Creates the table once (concurrent servers are fine: IF NOT EXISTS under an advisory lock). */
  ready(): Promise<void> {
    // The listing's orders (storage inspection), bytewise whatever the database's collation.
    const order = `updated_at COLLATE "C" DESC, id COLLATE "C" DESC`;
    const added = ADDED_COLUMNS.map(({ column, postgres }) => `ADD COLUMN IF NOT EXISTS ${column} ${postgres}`);
    this.#ready ??= createUnderLock(this.#pool, this.#schema, [
      `CREATE TABLE IF NOT EXISTS ${this.#table} (
        id TEXT PRIMARY KEY, owner TEXT NOT NULL, agent TEXT NOT NULL, title TEXT,
        created_at TEXT NOT NULL, updated_at TEXT NOT NULL, event_ids_reserved BIGINT NOT NULL DEFAULT 0,
        running_turn_id TEXT, last_client_message_id TEXT, last_turn_id TEXT)`,
      `CREATE INDEX IF NOT EXISTS gloveserver_conversations_owner ON ${this.#table} (owner, updated_at DESC)`,
      `ALTER TABLE ${this.#table} ${added.join(", ")}`,
      `CREATE INDEX IF NOT EXISTS gloveserver_conversations_updated ON ${this.#table} (${order})`,
      `CREATE INDEX IF NOT EXISTS gloveserver_conversations_agent ON ${this.#table} (agent, ${order})`,
      `CREATE INDEX IF NOT EXISTS gloveserver_conversations_owner_order ON ${this.#table} (owner, ${order})`,
      // The scale mode's sweep for turns whose owner died reads only the few running ones.
      `CREATE INDEX IF NOT EXISTS gloveserver_conversations_running ON ${this.#table} (updated_at) WHERE running_turn_id IS NOT NULL`,
    ]);
    this.#ready.catch(() => (this.#ready = undefined));
    return this.#ready;
  }

  async create(record: ConversationRecord): Promise<void> {
    await this.ready();
    const pairs = insertedColumns(record);
    await this.#pool.query(
      `INSERT INTO ${this.#table} (${pairs.map(([column]) => column).join(", ")}) VALUES (${pairs.map((_, i) => `$${i + 1}`).join(", ")})`,
      pairs.map(([, value]) => value),
    );
  }
  async get(id: string): Promise<ConversationRecord | undefined> {
    await this.ready();
    const { rows } = await this.#pool.query(`SELECT * FROM ${this.#table} WHERE id = $1`, [id]);
    return rows[0] ? recordFromRow(rows[0] as Record<string, unknown>) : undefined;
  }
  async listByOwner(owner: string, limit: number): Promise<ConversationRecord[]> {
    await this.ready();
    const { rows } = await this.#pool.query(
      `SELECT * FROM ${this.#table} WHERE owner = $1 ORDER BY updated_at DESC LIMIT $2`,
      [owner, limit],
    );
    return rows.map((row) => recordFromRow(row as Record<string, unknown>));
  }
  async listRunning(limit: number): Promise<ConversationRecord[]> {
    await this.ready();
    const { rows } = await this.#pool.query(
      `SELECT * FROM ${this.#table} WHERE running_turn_id IS NOT NULL ORDER BY updated_at LIMIT $1`,
      [limit],
    );
    return rows.map((row) => recordFromRow(row as Record<string, unknown>));
  }
  async update(id: string, changes: ConversationChanges): Promise<void> {
    const pairs = changedColumns(changes);
    if (!pairs.length) return;
    await this.ready();
    await this.#pool.query(
      `UPDATE ${this.#table} SET ${pairs.map(([column], i) => `${column} = $${i + 1}`).join(", ")} WHERE id = $${pairs.length + 1}`,
      [...pairs.map(([, value]) => value), id],
    );
  }
  async delete(id: string): Promise<void> {
    await this.ready();
    await this.#pool.query(`DELETE FROM ${this.#table} WHERE id = $1`, [id]);
  }
}
