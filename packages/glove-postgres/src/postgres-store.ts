import { randomUUID } from "node:crypto";
import pg from "pg";
import type { Pool, PoolClient } from "pg";
import type {
  InboxItem,
  InboxItemUpdate,
  Message,
  PermissionStatus,
  StoreAdapter,
  Task,
  TokenConsumptionCounter,
} from "glove-core";
import { PostgresStoreError } from "./errors.js";
import { decodeMessage, repairForInterruptedTools } from "glove-core";
import { migrate, quoteSchema } from "./schema.js";

export interface PostgresStoreOptions {
  /** A pool to share (not ended by `close()`). Give this or `connectionString`. */
  pool?: Pool;
  /** e.g. "postgres://user@host:5432/db": the store opens (and `close()` ends) its own pool. */
  connectionString?: string;
  /** The conversation this store reads and writes. */
  sessionId: string;
  /** The PostgreSQL schema holding Glove's tables, created when missing. Default "glove". */
  schema?: string;
  /**
   * Record an `aborted` result for tool calls left without one by a process that died mid-tool,
   * when the conversation moves on (docs/decisions/0006). Default true.
   */
  repairInterruptedToolCalls?: boolean;
}

interface ChildInfo {
  parentId: string;
  namespace: string;
  durable: boolean;
}

interface SessionRow {
  message_count: number;
  last_compaction_seq: number | null;
  tokens_in: string | number;
  tokens_out: string | number;
  turns: number;
}

interface InboxRow {
  item_id: string;
  tag: string;
  request: string;
  response: string | null;
  status: string;
  blocking: boolean;
  created_at: string;
  resolved_at: string | null;
}

interface TaskRow {
  task_id: string;
  content: string;
  active_form: string;
  status: string;
}

const TASK_STATUSES = new Set(["pending", "in_progress", "completed"]);
const INBOX_STATUSES = new Set(["pending", "resolved", "consumed"]);
const PERMISSION_STATUSES = new Set(["granted", "denied", "unset"]);

/** One migration per pool and schema, shared by every store on them. */
const migrations = new WeakMap<Pool, Map<string, Promise<void>>>();

/**
 * A `StoreAdapter` on PostgreSQL (`pg`), safe for many processes on one database: every append
 * is one transaction that locks the session's row, so appends from several processes never
 * interleave a batch or lose a message, and one store's appends land in call order. Implements
 * every optional capability — tasks (with `replaceTasks`), permissions, inbox, durable and
 * ephemeral sub-stores, `messageCount` and `getMessagesSinceLastCompaction` (both O(1) in the
 * history length, plus the messages returned).
 *
 * Create it with `await PostgresStore.open(options)` to surface schema problems at once; with
 * `new PostgresStore(options)` they surface on the first call.
 */
export class PostgresStore implements StoreAdapter {
  readonly identifier: string;
  readonly pool: Pool;
  readonly schema: string;
  readonly #ownsPool: boolean;
  readonly #options: PostgresStoreOptions;
  readonly #child: ChildInfo | undefined;
  readonly #t: ReturnType<typeof tableNames>;
  readonly #repair: boolean;
  #ready: Promise<void> | undefined;
  /** Appends of this instance, chained so they reach the database in call order. */
  #appendQueue: Promise<unknown> = Promise.resolve();

  constructor(options: PostgresStoreOptions);
  /** @internal sub-store constructor */
  constructor(options: PostgresStoreOptions, child: ChildInfo);
  constructor(options: PostgresStoreOptions, child?: ChildInfo) {
    const { sessionId } = options;
    if (typeof sessionId !== "string" || sessionId.length === 0) {
      throw new TypeError("PostgresStore: sessionId must be a non-empty string.");
    }
    this.identifier = sessionId;
    this.schema = options.schema ?? "glove";
    this.#t = tableNames(quoteSchema(this.schema));
    this.#options = options;
    this.#child = child;
    this.#repair = options.repairInterruptedToolCalls ?? true;
    if (options.pool) {
      this.pool = options.pool;
      this.#ownsPool = false;
    } else if (options.connectionString) {
      this.pool = new pg.Pool({ connectionString: options.connectionString });
      this.#ownsPool = true;
    } else {
      throw new TypeError(`PostgresStore session "${sessionId}": pass a pool or a connectionString.`);
    }
  }

  /** A store whose schema is migrated and session row created: problems surface here. */
  static async open(options: PostgresStoreOptions): Promise<PostgresStore> {
    const store = new PostgresStore(options);
    try {
      await store.ready();
    } catch (error) {
      await store.close();
      throw error;
    }
    return store;
  }

  /** Migrates the schema (once per pool) and creates the session row. Idempotent. */
  ready(): Promise<void> {
    this.#ready ??= this.#init().catch((error: unknown) => {
      this.#ready = undefined;
      throw error;
    });
    return this.#ready;
  }

  /** Ends the pool when this store opened it (`connectionString`); a no-op for shared pools and sub-stores. */
  async close(): Promise<void> {
    if (this.#ownsPool) await this.pool.end();
  }

  async #init(): Promise<void> {
    let perPool = migrations.get(this.pool);
    if (!perPool) migrations.set(this.pool, (perPool = new Map()));
    let migration = perPool.get(this.schema);
    if (!migration) {
      migration = this.#withClient((client) => migrate(client, this.schema, this.identifier));
      perPool.set(this.schema, migration);
      migration.catch(() => perPool.delete(this.schema));
    }
    await migration;
    await this.pool.query(
      `INSERT INTO ${this.#t.sessions} (session_id, parent_id, namespace, durable) VALUES ($1, $2, $3, $4)
       ON CONFLICT (session_id) DO NOTHING`,
      [this.identifier, this.#child?.parentId ?? null, this.#child?.namespace ?? null, this.#child ? this.#child.durable : null],
    );
  }

  async #withClient<T>(fn: (client: PoolClient) => Promise<T>): Promise<T> {
    const client = await this.pool.connect();
    try {
      return await fn(client);
    } finally {
      client.release();
    }
  }

  async #query<R extends object>(sql: string, params: unknown[]): Promise<{ rows: R[]; rowCount: number }> {
    await this.ready();
    const result = await this.pool.query(sql, params);
    return { rows: result.rows as R[], rowCount: result.rowCount ?? 0 };
  }

  /** A transaction holding this session's row lock: writers of one session take turns. */
  async #transaction<T>(fn: (client: PoolClient, session: SessionRow) => Promise<T>): Promise<T> {
    await this.ready();
    return this.#withClient(async (client) => {
      await client.query("BEGIN");
      try {
        await client.query(`INSERT INTO ${this.#t.sessions} (session_id) VALUES ($1) ON CONFLICT (session_id) DO NOTHING`, [this.identifier]);
        const locked = await client.query(
          `SELECT message_count, last_compaction_seq, tokens_in, tokens_out, turns FROM ${this.#t.sessions} WHERE session_id = $1 FOR UPDATE`,
          [this.identifier],
        );
        const result = await fn(client, this.#checkSession(locked.rows[0] as SessionRow));
        await client.query("COMMIT");
        return result;
      } catch (error) {
        await client.query("ROLLBACK").catch(() => {});
        throw error;
      }
    });
  }

  // ── Messages ──────────────────────────────────────────────────────────────────────────────

  async getMessages(): Promise<Message[]> {
    const { rows } = await this.#query<{ seq: number; body: unknown }>(
      `SELECT seq, body FROM ${this.#t.messages} WHERE session_id = $1 ORDER BY seq`,
      [this.identifier],
    );
    return rows.map((row) => this.#decodeRow(row));
  }

  appendMessages(msgs: Message[]): Promise<void> {
    if (msgs.length === 0) return Promise.resolve();
    const snapshot = msgs.slice();
    const run = this.#appendQueue.then(() => this.#transaction((client, session) => this.#appendLocked(client, session, snapshot)));
    this.#appendQueue = run.catch(() => {});
    return run;
  }

  async #appendLocked(client: PoolClient, session: SessionRow, msgs: Message[]): Promise<void> {
    let seq = session.message_count;
    let lastCompaction = session.last_compaction_seq;
    const rows: Message[] = [];
    if (this.#repair && seq > 0) {
      const tail = await client.query(`SELECT seq, body FROM ${this.#t.messages} WHERE session_id = $1 AND seq = $2`, [this.identifier, seq - 1]);
      const repair = repairForInterruptedTools(tail.rows[0] ? this.#decodeRow(tail.rows[0] as { seq: number; body: unknown }) : undefined, msgs);
      if (repair) rows.push(repair);
    }
    rows.push(...msgs);
    const seqs: number[] = [];
    const flags: boolean[] = [];
    const bodies: string[] = [];
    for (const message of rows) {
      let body: string;
      try {
        body = JSON.stringify(message);
      } catch (error) {
        throw new PostgresStoreError(this.identifier, `cannot store a message that is not JSON-serialisable: ${String(error)}`);
      }
      if (message.is_compaction === true) lastCompaction = seq;
      seqs.push(seq);
      flags.push(message.is_compaction === true);
      bodies.push(body);
      seq += 1;
    }
    await client.query(
      `INSERT INTO ${this.#t.messages} (session_id, seq, is_compaction, body)
       SELECT $1, t.seq, t.is_compaction, t.body FROM unnest($2::int[], $3::boolean[], $4::text[]) AS t(seq, is_compaction, body)`,
      [this.identifier, seqs, flags, bodies],
    );
    await client.query(`UPDATE ${this.#t.sessions} SET message_count = $2, last_compaction_seq = $3 WHERE session_id = $1`, [
      this.identifier,
      seq,
      lastCompaction,
    ]);
  }

  async messageCount(): Promise<number> {
    return (await this.#session()).message_count;
  }

  /** The last compaction summary and what follows (everything when there is none); one indexed range read. */
  async getMessagesSinceLastCompaction(): Promise<Message[]> {
    const { rows } = await this.#query<{ seq: number; body: unknown }>(
      `SELECT m.seq, m.body FROM ${this.#t.messages} m
       WHERE m.session_id = $1
         AND m.seq >= COALESCE((SELECT s.last_compaction_seq FROM ${this.#t.sessions} s WHERE s.session_id = $1), 0)
       ORDER BY m.seq`,
      [this.identifier],
    );
    return rows.map((row) => this.#decodeRow(row));
  }

  #decodeRow(row: { seq: number; body: unknown }): Message {
    const decoded = decodeMessage(row.body);
    if ("problem" in decoded) {
      throw new PostgresStoreError(
        this.identifier,
        `message ${row.seq} in ${this.#t.messages} is corrupt: ${decoded.problem}. ` +
          `Nothing was changed or deleted; repair that row (session_id, seq) to continue.`,
        "GLOVE_STORE_CORRUPT",
      );
    }
    return decoded.message;
  }

  async #session(): Promise<SessionRow> {
    const { rows } = await this.#query<SessionRow>(
      `SELECT message_count, last_compaction_seq, tokens_in, tokens_out, turns FROM ${this.#t.sessions} WHERE session_id = $1`,
      [this.identifier],
    );
    return this.#checkSession(rows[0]);
  }

  #checkSession(row: SessionRow | undefined): SessionRow {
    if (!row) return { message_count: 0, last_compaction_seq: null, tokens_in: 0, tokens_out: 0, turns: 0 };
    const tokensIn = Number(row.tokens_in);
    const tokensOut = Number(row.tokens_out);
    if (!Number.isSafeInteger(tokensIn) || !Number.isSafeInteger(tokensOut)) {
      throw new PostgresStoreError(this.identifier, `the session row is corrupt: tokens ${row.tokens_in}/${row.tokens_out}. Nothing was changed.`, "GLOVE_STORE_CORRUPT");
    }
    return { ...row, tokens_in: tokensIn, tokens_out: tokensOut };
  }

  // ── Counters ──────────────────────────────────────────────────────────────────────────────

  async getTokenCount(): Promise<number> {
    const row = await this.#session();
    return Number(row.tokens_in) + Number(row.tokens_out);
  }

  async addTokens(args: TokenConsumptionCounter): Promise<void> {
    await this.#query(
      `INSERT INTO ${this.#t.sessions} (session_id, tokens_in, tokens_out) VALUES ($1, $2, $3)
       ON CONFLICT (session_id) DO UPDATE SET
         tokens_in = ${this.#t.sessions}.tokens_in + excluded.tokens_in,
         tokens_out = ${this.#t.sessions}.tokens_out + excluded.tokens_out`,
      [this.identifier, Math.trunc(args.tokens_in) || 0, Math.trunc(args.tokens_out) || 0],
    );
  }

  async getTurnCount(): Promise<number> {
    return (await this.#session()).turns;
  }

  async incrementTurn(): Promise<void> {
    await this.#query(
      `INSERT INTO ${this.#t.sessions} (session_id, turns) VALUES ($1, 1)
       ON CONFLICT (session_id) DO UPDATE SET turns = ${this.#t.sessions}.turns + 1`,
      [this.identifier],
    );
  }

  async resetCounters(): Promise<void> {
    await this.#query(`UPDATE ${this.#t.sessions} SET tokens_in = 0, tokens_out = 0, turns = 0 WHERE session_id = $1`, [this.identifier]);
  }

  // ── Tasks ─────────────────────────────────────────────────────────────────────────────────

  async getTasks(): Promise<Task[]> {
    const { rows } = await this.#query<TaskRow>(
      `SELECT task_id, content, active_form, status FROM ${this.#t.tasks} WHERE session_id = $1 ORDER BY position`,
      [this.identifier],
    );
    return rows.map((row) => this.#decodeTask(row));
  }

  async addTasks(tasks: Task[]): Promise<void> {
    await this.#transaction(async (client) => {
      for (const task of tasks) await this.#upsertTask(client, task);
    });
  }

  async replaceTasks(tasks: Task[]): Promise<void> {
    await this.#transaction(async (client) => {
      await client.query(`DELETE FROM ${this.#t.tasks} WHERE session_id = $1`, [this.identifier]);
      for (const task of tasks) await this.#upsertTask(client, task);
    });
  }

  async updateTask(taskId: string, updates: Partial<Task>): Promise<void> {
    await this.#transaction(async (client) => {
      const { rows } = await client.query(
        `SELECT task_id, content, active_form, status FROM ${this.#t.tasks} WHERE session_id = $1 AND task_id = $2`,
        [this.identifier, taskId],
      );
      if (!rows[0]) {
        throw new PostgresStoreError(this.identifier, `cannot update task "${taskId}": no task has that id. Add it with addTasks first.`);
      }
      const defined = Object.fromEntries(Object.entries(updates).filter(([, v]) => v !== undefined)) as Partial<Task>;
      await this.#upsertTask(client, { ...this.#decodeTask(rows[0] as TaskRow), ...defined, id: taskId });
    });
  }

  async #upsertTask(client: PoolClient, task: Task): Promise<void> {
    if (!TASK_STATUSES.has(task.status)) {
      throw new PostgresStoreError(this.identifier, `task "${task.id}" has status ${JSON.stringify(task.status)}; expected pending, in_progress or completed.`);
    }
    await client.query(
      `INSERT INTO ${this.#t.tasks} (session_id, task_id, position, content, active_form, status)
       VALUES ($1, $2, (SELECT COALESCE(MAX(position) + 1, 0) FROM ${this.#t.tasks} WHERE session_id = $1), $3, $4, $5)
       ON CONFLICT (session_id, task_id) DO UPDATE SET
         content = excluded.content, active_form = excluded.active_form, status = excluded.status`,
      [this.identifier, task.id, task.content, task.activeForm, task.status],
    );
  }

  #decodeTask(row: TaskRow): Task {
    if (!TASK_STATUSES.has(row.status) || typeof row.content !== "string" || typeof row.active_form !== "string") {
      throw new PostgresStoreError(this.identifier, `task "${row.task_id}" is corrupt (status ${JSON.stringify(row.status)}). Nothing was changed.`, "GLOVE_STORE_CORRUPT");
    }
    return { id: row.task_id, content: row.content, activeForm: row.active_form, status: row.status as Task["status"] };
  }

  // ── Permissions ───────────────────────────────────────────────────────────────────────────

  async getPermission(toolName: string): Promise<PermissionStatus> {
    const { rows } = await this.#query<{ status: string }>(
      `SELECT status FROM ${this.#t.permissions} WHERE session_id = $1 AND tool_name = $2`,
      [this.identifier, toolName],
    );
    const status = rows[0]?.status;
    if (status === undefined) return "unset";
    if (!PERMISSION_STATUSES.has(status)) {
      throw new PostgresStoreError(this.identifier, `the permission of "${toolName}" is corrupt (${JSON.stringify(status)}). Nothing was changed.`, "GLOVE_STORE_CORRUPT");
    }
    return status as PermissionStatus;
  }

  async setPermission(toolName: string, status: PermissionStatus): Promise<void> {
    if (!PERMISSION_STATUSES.has(status)) {
      throw new PostgresStoreError(this.identifier, `permission status must be granted, denied or unset, not ${JSON.stringify(status)}.`);
    }
    await this.#query(
      `INSERT INTO ${this.#t.permissions} (session_id, tool_name, status) VALUES ($1, $2, $3)
       ON CONFLICT (session_id, tool_name) DO UPDATE SET status = excluded.status`,
      [this.identifier, toolName, status],
    );
  }

  // ── Inbox ─────────────────────────────────────────────────────────────────────────────────

  async getInboxItems(): Promise<InboxItem[]> {
    const { rows } = await this.#query<InboxRow>(
      `SELECT item_id, tag, request, response, status, blocking, created_at, resolved_at FROM ${this.#t.inbox}
       WHERE session_id = $1 ORDER BY position`,
      [this.identifier],
    );
    return rows.map((row) => this.#decodeInbox(row));
  }

  async addInboxItem(item: InboxItem): Promise<void> {
    if (!INBOX_STATUSES.has(item.status)) {
      throw new PostgresStoreError(this.identifier, `inbox item "${item.id}" has status ${JSON.stringify(item.status)}.`);
    }
    await this.#transaction(async (client) => {
      await client.query(
        `INSERT INTO ${this.#t.inbox} (session_id, item_id, position, tag, request, response, status, blocking, created_at, resolved_at)
         VALUES ($1, $2, (SELECT COALESCE(MAX(position) + 1, 0) FROM ${this.#t.inbox} WHERE session_id = $1), $3, $4, $5, $6, $7, $8, $9)
         ON CONFLICT (session_id, item_id) DO UPDATE SET
           tag = excluded.tag, request = excluded.request, response = excluded.response, status = excluded.status,
           blocking = excluded.blocking, created_at = excluded.created_at, resolved_at = excluded.resolved_at`,
        [this.identifier, item.id, item.tag, item.request, item.response ?? null, item.status, item.blocking === true, item.created_at, item.resolved_at ?? null],
      );
    });
  }

  /** Changes status, response and resolved_at only; any process on the same database may call it. */
  async updateInboxItem(itemId: string, updates: InboxItemUpdate): Promise<void> {
    if (updates.status !== undefined && !INBOX_STATUSES.has(updates.status)) {
      throw new PostgresStoreError(this.identifier, `inbox status must be pending, resolved or consumed, not ${JSON.stringify(updates.status)}.`);
    }
    const { rowCount } = await this.#query(
      `UPDATE ${this.#t.inbox} SET
         status = CASE WHEN $3 THEN $4 ELSE status END,
         response = CASE WHEN $5 THEN $6 ELSE response END,
         resolved_at = CASE WHEN $7 THEN $8 ELSE resolved_at END
       WHERE session_id = $1 AND item_id = $2`,
      [
        this.identifier,
        itemId,
        updates.status !== undefined,
        updates.status ?? null,
        updates.response !== undefined,
        updates.response ?? null,
        updates.resolved_at !== undefined,
        updates.resolved_at ?? null,
      ],
    );
    if (rowCount === 0) {
      throw new PostgresStoreError(this.identifier, `cannot update inbox item "${itemId}": no item has that id in this session.`);
    }
  }

  async getResolvedInboxItems(): Promise<InboxItem[]> {
    const { rows } = await this.#query<InboxRow>(
      `SELECT item_id, tag, request, response, status, blocking, created_at, resolved_at FROM ${this.#t.inbox}
       WHERE session_id = $1 AND status = 'resolved' ORDER BY position`,
      [this.identifier],
    );
    return rows.map((row) => this.#decodeInbox(row));
  }

  #decodeInbox(row: InboxRow): InboxItem {
    const ok =
      INBOX_STATUSES.has(row.status) &&
      typeof row.tag === "string" &&
      typeof row.request === "string" &&
      (row.response === null || typeof row.response === "string") &&
      typeof row.blocking === "boolean" &&
      typeof row.created_at === "string" &&
      (row.resolved_at === null || typeof row.resolved_at === "string");
    if (!ok) {
      throw new PostgresStoreError(this.identifier, `inbox item "${row.item_id}" is corrupt (status ${JSON.stringify(row.status)}). Nothing was changed.`, "GLOVE_STORE_CORRUPT");
    }
    return {
      id: row.item_id,
      tag: row.tag,
      request: row.request,
      response: row.response,
      status: row.status as InboxItem["status"],
      blocking: row.blocking,
      created_at: row.created_at,
      resolved_at: row.resolved_at,
    };
  }

  // ── Sub-stores ────────────────────────────────────────────────────────────────────────────

  /**
   * A child store on the same pool and schema. Durable: session `<identifier>::<namespace>`, the
   * same history on every call and in every process. Ephemeral (default): a new, empty session
   * `<identifier>::<namespace>~<uuid>` per call, kept as a record of that run.
   */
  async createSubAgentStore(namespace: string, durable = false): Promise<StoreAdapter> {
    const base = `${this.identifier}::${namespace}`;
    const child = new PostgresStore(
      { ...this.#options, pool: this.pool, connectionString: undefined, sessionId: durable ? base : `${base}~${randomUUID()}` },
      { parentId: this.identifier, namespace, durable },
    );
    await child.ready();
    return child;
  }
}

function tableNames(s: string) {
  return {
    sessions: `${s}.glove_sessions`,
    messages: `${s}.glove_messages`,
    tasks: `${s}.glove_tasks`,
    permissions: `${s}.glove_permissions`,
    inbox: `${s}.glove_inbox`,
  };
}
