import { randomUUID } from "node:crypto";
import pg from "pg";
import type { Pool, PoolClient } from "pg";
import type {
  BranchRewrite,
  BranchRewriteOutcome,
  StoredBranch,
  InboxItem,
  InboxItemUpdate,
  Message,
  MessagePageResult,
  ModelCallRecord,
  PermissionStatus,
  StoreAdapter,
  StoredWait,
  SubAgentStoreOptions,
  SubStoreInfo,
  Task,
  TokenConsumptionCounter,
  WaitFilter,
  WaitOutcome,
  WaitSettlement,
} from "glove-core";
import {
  checkedPage,
  ConfigurationError,
  createRecordCodec,
  recordModelCallInSteps,
  requireSessionId,
  runsOwnModelCallSteps,
  subStoreSession,
} from "glove-core";
import { PostgresCounters } from "./counters.js";
import { PostgresStoreError } from "./errors.js";
import { PostgresInbox } from "./inbox.js";
import { readPageRows } from "./message-page.js";
import { PostgresBranches } from "./branches.js";
import { PostgresMessages } from "./messages.js";
import { PostgresPermissions } from "./permissions.js";
import { PostgresSession, tableNames } from "./session.js";
import { PostgresTasks } from "./tasks.js";
import { PostgresWaits } from "./waits.js";
import { checkWriterFence, type WriterFence } from "./writer-fence.js";

/** Options of PostgresStore: the pool or connection string, the schema and the conversation. */
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
  /**
   * Runs inside every message append's transaction, after the session's row is locked and before
   * anything is written; throwing refuses the append (nothing is written). For fencing: a writer
   * that may have been replaced checks its token in the same transaction as its write.
   * Sub-agent stores inherit it.
   */
  beforeAppend?: (client: PoolClient) => Promise<void>;
  /**
   * Fencing without a query of its own: message appends, model calls and branch rewrites read the
   * writer fence in the statement that locks the session's row, and a replaced writer's write is
   * refused (nothing written). See `WriterFence`. Sub-agent stores inherit it.
   */
  writerFence?: WriterFence;
}

/**
 * A `StoreAdapter` on PostgreSQL (`pg`), safe for many processes on one database: every append
 * is one transaction that locks the session's row, so appends from several processes never
 * interleave a batch or lose a message, and one store's appends land in call order. Implements
 * every optional capability — tasks (with `replaceTasks`), permissions, inbox (with `consumeInboxItem`), durable questions
 * (`addWait`, `settleWait`, `getWaits`), durable and ephemeral sub-stores, `messageCount` and `getMessagesSinceLastCompaction` (both O(1) in the
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
  readonly #session: PostgresSession;
  readonly #messages: PostgresMessages;
  readonly #counters: PostgresCounters;
  readonly #tasks: PostgresTasks;
  readonly #permissions: PostgresPermissions;
  readonly #inbox: PostgresInbox;
  readonly #waits: PostgresWaits;
  readonly #branches: PostgresBranches;

  constructor(options: PostgresStoreOptions);
  /** @internal sub-store constructor */
  constructor(options: PostgresStoreOptions, child: SubStoreInfo);
  constructor(options: PostgresStoreOptions, child?: SubStoreInfo) {
    const sessionId = requireSessionId(
      "PostgresStore",
      options.sessionId,
      (displayId, detail) => new PostgresStoreError(displayId, detail, "GLOVE_STORE_INVALID"),
    );
    this.identifier = sessionId;
    this.schema = options.schema ?? "glove";
    this.#options = options;
    // The options are checked before a pool is opened: a refusal leaves nothing behind.
    const tables = tableNames(this.schema, `PostgresStore session "${sessionId}"`);
    const fence = checkWriterFence(options.writerFence, sessionId);
    if (options.pool) {
      this.pool = options.pool;
      this.#ownsPool = false;
    } else if (options.connectionString) {
      this.pool = new pg.Pool({ connectionString: checkConnectionString(options.connectionString, sessionId) });
      this.#ownsPool = true;
    } else {
      throw new ConfigurationError(
        `PostgresStore session "${sessionId}": pass a pool (a pg.Pool) or a connectionString ` +
          `(postgres://user:password@host:5432/database). Nothing was changed.`,
      );
    }
    const codec = createRecordCodec({ error: (detail, code) => new PostgresStoreError(sessionId, detail, code) });
    this.#session = new PostgresSession({ pool: this.pool, schema: this.schema, tables, sessionId, codec, child });
    this.#messages = new PostgresMessages(
      this.#session,
      options.repairInterruptedToolCalls ?? true,
      options.beforeAppend,
      fence,
    );
    this.#counters = new PostgresCounters(this.#session);
    this.#tasks = new PostgresTasks(this.#session);
    this.#permissions = new PostgresPermissions(this.#session);
    this.#inbox = new PostgresInbox(this.#session);
    this.#waits = new PostgresWaits(this.#session);
    this.#branches = new PostgresBranches(this.#session, options.beforeAppend, fence);
  }

  /** A store whose schema is migrated (and, for a sub-store, whose place is recorded): problems surface here. */
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

  /**
   * Migrates the schema (once per pool); a sub-store also records its parent and namespace. A
   * conversation's session row is made by its first write. Idempotent.
   */
  ready(): Promise<void> {
    return this.#session.ready();
  }

  /** Ends the pool when this store opened it (`connectionString`); a no-op for shared pools and sub-stores. */
  async close(): Promise<void> {
    if (this.#ownsPool) await this.pool.end();
  }

  // Messages

  async getMessages(): Promise<Message[]> {
    return this.#messages.all();
  }

  appendMessages(msgs: Message[]): Promise<void> {
    return this.#messages.append(msgs);
  }

  async messageCount(): Promise<number> {
    return (await this.#session.readRow()).message_count;
  }

  /** Messages [offset, offset + limit) and the count: one indexed range read, O(the page). */
  async getMessagePage(offset: number, limit: number): Promise<MessagePageResult> {
    const page = checkedPage(
      offset,
      limit,
      (detail) => new PostgresStoreError(this.identifier, detail, "GLOVE_STORE_INVALID"),
    );
    await this.#session.ready();
    return readPageRows(this.pool, this.schema, this.identifier, page);
  }

  /** The last compaction summary and what follows (everything when there is none); one indexed range read. */
  async getMessagesSinceLastCompaction(): Promise<Message[]> {
    return this.#messages.sinceLastCompaction();
  }

  // Branches

  /** The stretches set aside from the active branch, in the order they were added. */
  async getBranches(): Promise<StoredBranch[]> {
    return this.#branches.list();
  }

  /**
   * Applies the rewrite in one transaction holding the session's row lock (after `beforeAppend`, so
   * a fenced writer cannot rewrite either), or `won: false` when the active branch changed since it was read.
   */
  async rewriteBranches(change: BranchRewrite): Promise<BranchRewriteOutcome> {
    return this.#branches.rewrite(change);
  }

  // Counters

  async getTokenCount(): Promise<number> {
    return this.#counters.tokenCount();
  }

  async addTokens(args: TokenConsumptionCounter): Promise<void> {
    await this.#counters.addTokens(args);
  }

  async getTurnCount(): Promise<number> {
    return this.#counters.turnCount();
  }

  async incrementTurn(): Promise<void> {
    await this.#counters.incrementTurn();
  }

  async resetCounters(): Promise<void> {
    await this.#counters.reset();
  }

  /**
   * The model's messages, its tokens and one turn in one transaction holding the session's row
   * lock, after `beforeAppend` (a fenced writer records nothing); a refused token count or message
   * writes nothing.
   */
  async recordModelCall(call: ModelCallRecord): Promise<void> {
    if (!runsOwnModelCallSteps(this, PostgresStore.prototype)) {
      return recordModelCallInSteps(this, call, (tokens) => this.#counters.checkTokens(tokens));
    }
    await this.#messages.recordModelCall(call?.messages, call?.tokens);
  }

  // Tasks

  async getTasks(): Promise<Task[]> {
    return this.#tasks.list();
  }

  async addTasks(tasks: Task[]): Promise<void> {
    await this.#tasks.add(tasks);
  }

  async replaceTasks(tasks: Task[]): Promise<void> {
    await this.#tasks.replace(tasks);
  }

  async updateTask(taskId: string, updates: Partial<Task>): Promise<void> {
    await this.#tasks.update(taskId, updates);
  }

  // Permissions

  async getPermission(toolName: string): Promise<PermissionStatus> {
    return this.#permissions.get(toolName);
  }

  async setPermission(toolName: string, status: PermissionStatus): Promise<void> {
    await this.#permissions.set(toolName, status);
  }

  // Inbox

  async getInboxItems(): Promise<InboxItem[]> {
    return this.#inbox.list();
  }

  async addInboxItem(item: InboxItem): Promise<void> {
    await this.#inbox.add(item);
  }

  /** Changes status, response and resolved_at only; any process on the same database may call it. */
  async updateInboxItem(itemId: string, updates: InboxItemUpdate): Promise<void> {
    await this.#inbox.update(itemId, updates);
  }

  async getResolvedInboxItems(): Promise<InboxItem[]> {
    return this.#inbox.resolved();
  }

  /** Resolved → consumed; false when the item is not resolved. The first claim wins, across every process on the database. */
  async consumeInboxItem(itemId: string): Promise<boolean> {
    return this.#inbox.consume(itemId);
  }

  // Durable questions

  /** Records a wait; an id already stored changes nothing (a replay adds again). */
  async addWait(wait: StoredWait): Promise<void> {
    await this.#waits.add(wait);
  }

  /** Settles a pending wait; the first settle wins, across every process on the database. */
  async settleWait(id: string, outcome: WaitOutcome): Promise<WaitSettlement> {
    return this.#waits.settle(id, outcome);
  }

  /** The session's waits in the order they were added, filtered by status and/or tool call. */
  async getWaits(filter?: WaitFilter): Promise<StoredWait[]> {
    return this.#waits.list(filter);
  }

  // Sub-stores

  /**
   * A child store on the same pool and schema. Durable: session `<identifier>::<namespace>`, the
   * same history on every call and in every process. Ephemeral (default): a new, empty session
   * `<identifier>::<namespace>~<uuid>` per call, kept as a record of that run.
   */
  createSubAgentStore(namespace: string, options?: SubAgentStoreOptions): Promise<StoreAdapter>;
  /** @deprecated Pass options: `createSubAgentStore(namespace, { durable: true })`. */
  createSubAgentStore(namespace: string, durable?: boolean): Promise<StoreAdapter>;
  async createSubAgentStore(namespace: string, options?: SubAgentStoreOptions | boolean): Promise<StoreAdapter> {
    const { sessionId, child } = subStoreSession(this, namespace, options, randomUUID);
    const store = new PostgresStore(
      { ...this.#options, pool: this.pool, connectionString: undefined, sessionId },
      child,
    );
    await store.ready();
    return store;
  }
}

/** A postgres:// URL (or a libpq "key=value" string); anything else is refused before a pool exists. */
function checkConnectionString(value: unknown, sessionId: string): string {
  if (typeof value !== "string") {
    throw new ConfigurationError(
      `PostgresStore session "${sessionId}": connectionString must be a string, got ${typeof value}. Pass a URL such as postgres://user:password@host:5432/database. Nothing was changed.`,
    );
  }
  if (/^postgres(ql)?:\/\//i.test(value)) {
    try {
      new URL(value);
      return value;
    } catch {
      throw new ConfigurationError(
        `PostgresStore session "${sessionId}": the connectionString is not a valid URL. Pass one such as postgres://user:password@host:5432/database. Nothing was changed.`,
      );
    }
  }
  if (/^[a-z]+:\/\//i.test(value)) {
    const scheme = value.slice(0, value.indexOf(":"));
    throw new ConfigurationError(
      `PostgresStore session "${sessionId}": "${scheme}://" is not a PostgreSQL URL. Pass one such as postgres://user:password@host:5432/database. Nothing was changed.`,
    );
  }
  if (/^\s*\w+\s*=/.test(value)) return value;
  throw new ConfigurationError(
    `PostgresStore session "${sessionId}": the connectionString is neither a postgres:// URL nor "key=value" settings. Pass one such as postgres://user:password@host:5432/database. Nothing was changed.`,
  );
}
