import { randomUUID } from "node:crypto";
import type {
  BranchRewrite,
  BranchRewriteOutcome,
  InboxItem,
  InboxItemUpdate,
  Message,
  MessagePageResult,
  ModelCallRecord,
  PermissionStatus,
  StoreAdapter,
  StoredBranch,
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
  ConfigurationError,
  createRecordCodec,
  recordModelCallInSteps,
  requireSessionId,
  runsOwnModelCallSteps,
  subStoreSession,
} from "glove-core";
import { SqliteStoreError } from "./errors.js";
import { asSqliteDatabase, openSqliteDatabase, sqliteDriverOf } from "./driver/open-database.js";
import { SqliteDriverError } from "./driver/driver-error.js";
import type { NodeSqliteDatabaseSync, SqliteDatabase, SqliteDriverChoice, SqliteDriverName } from "./driver/types.js";
import { GroupCommit, sessionWritesKey } from "./group-commit.js";
import { SqliteInbox } from "./inbox.js";
import { SqliteBranches } from "./branches.js";
import { SqliteMessages } from "./messages.js";
import { SqlitePermissions } from "./permissions.js";
import { migrate } from "./schema.js";
import { SqliteSessionRow } from "./session.js";
import { SqliteTasks } from "./tasks.js";
import { SqliteWaits } from "./waits.js";

/** Options of SqliteStore: the database and the conversation to read and write. */
export interface SqliteStoreOptions {
  /** The database file (created when missing), or ":memory:". Ignored when `database` is given. */
  dbPath?: string;
  /**
   * An open connection to share (e.g. several sessions in one process): a better-sqlite3
   * `Database`, a node:sqlite `DatabaseSync`, or one from `openSqliteDatabase`. Not closed by `close()`.
   */
  database?: SqliteDatabase | NodeSqliteDatabaseSync;
  /**
   * Which driver opens `dbPath`: "auto" (default) takes node:sqlite where the running Node.js has it
   * (22.13+), else better-sqlite3 (an optional peer: `npm install better-sqlite3` on Node 20).
   */
  driver?: SqliteDriverChoice;
  /** The conversation this store reads and writes. */
  sessionId: string;
  /** How long a write waits for another process's write lock, in ms. Default 5000. */
  busyTimeoutMs?: number;
  /**
   * Record an `aborted` result for tool calls left without one by a process that died mid-tool,
   * when the conversation moves on (docs/decisions/0006). Default true.
   */
  repairInterruptedToolCalls?: boolean;
  /**
   * Group commit: writes issued during one turn of the event loop — by every store on this
   * connection — run together at its end in one transaction, each still all-or-nothing on its own,
   * and each call resolves after that commit. Worth it when many conversations write to one file at
   * once (a server); it adds one turn of the loop to a write's latency. A write reads its arguments
   * when it runs (messages are encoded at the call), so do not change them before it resolves.
   * Once on for a connection it stays on. Default false.
   */
  groupCommit?: boolean;
}

/**
 * A `StoreAdapter` on SQLite (node:sqlite, or better-sqlite3 on Node 20): one file holds any number of conversations, safe
 * for several processes (WAL, IMMEDIATE write transactions, busy timeout). Implements every
 * optional capability — tasks (with `replaceTasks`), permissions, inbox (with `consumeInboxItem`), durable questions
 * (`addWait`, `settleWait`, `getWaits`), durable and ephemeral sub-stores, `messageCount` and the `getMessagesSinceLastCompaction` fast path (both O(1) in
 * the history length, plus the messages returned).
 *
 * Calls run synchronously inside their async wrappers (or, with `groupCommit`, are queued and run in
 * call order at the end of the loop's turn; a read runs the queue first), so one process's appends
 * land in call order.
 */
export class SqliteStore implements StoreAdapter {
  readonly identifier: string;
  /** The underlying connection (shared with sub-stores); a node:sqlite handle is seen through its adapter. */
  readonly db: SqliteDatabase;
  readonly #ownsDb: boolean;
  readonly #options: SqliteStoreOptions;
  readonly #row: SqliteSessionRow;
  readonly #messages: SqliteMessages;
  readonly #tasks: SqliteTasks;
  readonly #permissions: SqlitePermissions;
  readonly #inbox: SqliteInbox;
  readonly #waits: SqliteWaits;
  readonly #branches: SqliteBranches;
  readonly #group: GroupCommit | undefined;
  /** What this store's writes touch, for the group commit: reads of other sessions need not wait for them. */
  readonly #key: string;

  constructor(options: SqliteStoreOptions);
  /** @internal sub-store constructor */
  constructor(options: SqliteStoreOptions, child: SubStoreInfo);
  constructor(options: SqliteStoreOptions, child?: SubStoreInfo) {
    if (typeof options !== "object" || options === null)
      throw new ConfigurationError(
        'new SqliteStore(options): pass an options object, e.g. { dbPath: "glove.db", sessionId: "…" }. Nothing was changed.',
      );
    const sessionId = requireSessionId(
      "SqliteStore",
      options.sessionId,
      (displayId, detail) => new SqliteStoreError(displayId, detail, "GLOVE_STORE_INVALID"),
    );
    this.identifier = sessionId;
    this.#options = options;
    if (options.database) {
      this.db = asSqliteDatabase(options.database);
      this.#ownsDb = false;
    } else {
      if (!options.dbPath)
        throw new ConfigurationError(
          `SqliteStore session "${sessionId}": pass dbPath (a file path or ":memory:") or database (an open better-sqlite3 or node:sqlite database). Nothing was changed.`,
        );
      this.db = openDatabase(options.dbPath, sessionId, options.driver);
      this.#ownsDb = true;
    }
    if (options.groupCommit) GroupCommit.enable(this.db);
    this.#group = GroupCommit.of(this.db);
    this.#key = sessionWritesKey(sessionId);
    // What follows may write (the session row, a migration): queued writes to it go first, in call order.
    this.#group?.flushFor(this.#key);
    const where = `SQLite database ${this.db.name}`;
    const codec = createRecordCodec({ error: (detail, code) => new SqliteStoreError(sessionId, detail, code), where });
    const session = { db: this.db, sessionId, where, codec };
    try {
      if (this.#ownsDb) {
        const busyTimeout = Math.max(0, Math.floor(options.busyTimeoutMs ?? 5000));
        this.db.exec(`PRAGMA busy_timeout = ${busyTimeout}; PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL`);
      }
      migrate(this.db, sessionId, where);
      this.#row = new SqliteSessionRow(session);
      this.#messages = new SqliteMessages(session, this.#row, options.repairInterruptedToolCalls ?? true);
      this.#tasks = new SqliteTasks(session);
      this.#permissions = new SqlitePermissions(session);
      this.#inbox = new SqliteInbox(session);
      this.#waits = new SqliteWaits(session);
      this.#branches = new SqliteBranches(session, this.#row);
      this.#row.ensure(child);
    } catch (error) {
      if (this.#ownsDb) this.db.close();
      throw error;
    }
  }

  /** The driver under this store's connection. */
  get driver(): SqliteDriverName {
    return sqliteDriverOf(this.db);
  }

  /** Closes the connection when this store opened it (`dbPath`); a no-op for shared handles and sub-stores. */
  close(): void {
    if (this.#ownsDb && this.db.open) {
      this.#group?.flush();
      this.db.close();
    }
  }

  /** Runs a write now, or queues it for the connection's group commit (`selfContained`: see GroupCommit.write). */
  #write<T>(run: () => T, selfContained = false): Promise<T> {
    return GroupCommit.write(this.db, run, this.#key, selfContained);
  }

  // Messages

  async getMessages(): Promise<Message[]> {
    this.#group?.flushFor(this.#key);
    return this.#messages.from(0);
  }

  async appendMessages(msgs: Message[]): Promise<void> {
    return this.#write(this.#messages.prepareAppend(msgs), true);
  }

  async messageCount(): Promise<number> {
    this.#group?.flushFor(this.#key);
    return this.#row.read().message_count;
  }

  /** Messages [offset, offset + limit) and the count: one indexed range read, O(the page). */
  async getMessagePage(offset: number, limit: number): Promise<MessagePageResult> {
    this.#group?.flushFor(this.#key);
    return this.#messages.page(offset, limit);
  }

  /** The last compaction summary and what follows (everything when there is none); one indexed range read. */
  async getMessagesSinceLastCompaction(): Promise<Message[]> {
    this.#group?.flushFor(this.#key);
    return this.#messages.sinceLastCompaction();
  }

  // Branches

  /** The stretches set aside from the active branch, in the order they were added. */
  async getBranches(): Promise<StoredBranch[]> {
    this.#group?.flushFor(this.#key);
    return this.#branches.list();
  }

  /** Applies the rewrite in one IMMEDIATE transaction, or `won: false` when the active branch changed since it was read. */
  async rewriteBranches(change: BranchRewrite): Promise<BranchRewriteOutcome> {
    return this.#write(() => this.#branches.rewrite(change));
  }

  // Counters

  async getTokenCount(): Promise<number> {
    this.#group?.flushFor(this.#key);
    const row = this.#row.read();
    return row.tokens_in + row.tokens_out;
  }

  /** Adds non-negative integer counts; refuses (GLOVE_STORE_INVALID) an add that would take the total past 2^53 − 1. */
  async addTokens(args: TokenConsumptionCounter): Promise<void> {
    return this.#write(() => this.#row.addTokens(args));
  }

  async getTurnCount(): Promise<number> {
    this.#group?.flushFor(this.#key);
    return this.#row.read().turns;
  }

  async incrementTurn(): Promise<void> {
    return this.#write(() => this.#row.incrementTurn(), true);
  }

  async resetCounters(): Promise<void> {
    return this.#write(() => this.#row.resetCounters());
  }

  /**
   * The model's messages, its tokens and one turn in one IMMEDIATE transaction (one commit instead
   * of three); a refused token count or message writes nothing.
   */
  async recordModelCall(call: ModelCallRecord): Promise<void> {
    if (!runsOwnModelCallSteps(this, SqliteStore.prototype)) {
      return recordModelCallInSteps(this, call, (tokens) => this.#row.checkTokens(tokens));
    }
    return this.#write(this.#messages.prepareModelCall(call?.messages, call?.tokens), true);
  }

  // Tasks

  async getTasks(): Promise<Task[]> {
    this.#group?.flushFor(this.#key);
    return this.#tasks.list();
  }

  /** Appends new tasks; a task whose id exists is replaced in place. */
  async addTasks(tasks: Task[]): Promise<void> {
    return this.#write(() => this.#tasks.add(tasks));
  }

  async replaceTasks(tasks: Task[]): Promise<void> {
    return this.#write(() => this.#tasks.replace(tasks));
  }

  async updateTask(taskId: string, updates: Partial<Task>): Promise<void> {
    return this.#write(() => this.#tasks.update(taskId, updates));
  }

  // Permissions

  async getPermission(toolName: string): Promise<PermissionStatus> {
    this.#group?.flushFor(this.#key);
    return this.#permissions.get(toolName);
  }

  async setPermission(toolName: string, status: PermissionStatus): Promise<void> {
    return this.#write(() => this.#permissions.set(toolName, status));
  }

  // Inbox

  async getInboxItems(): Promise<InboxItem[]> {
    this.#group?.flushFor(this.#key);
    return this.#inbox.list();
  }

  async addInboxItem(item: InboxItem): Promise<void> {
    return this.#write(() => this.#inbox.add(item));
  }

  /** Changes status, response and resolved_at only; another process may call it on the same database. */
  async updateInboxItem(itemId: string, updates: InboxItemUpdate): Promise<void> {
    return this.#write(() => this.#inbox.update(itemId, updates));
  }

  async getResolvedInboxItems(): Promise<InboxItem[]> {
    this.#group?.flushFor(this.#key);
    return this.#inbox.resolved();
  }

  /** Resolved → consumed; false when the item is not resolved. The first claim wins, across processes on the same file. */
  async consumeInboxItem(itemId: string): Promise<boolean> {
    return this.#write(() => this.#inbox.consume(itemId));
  }

  // Durable questions

  /** Records a wait; an id already stored changes nothing (a replay adds again). */
  async addWait(wait: StoredWait): Promise<void> {
    return this.#write(() => this.#waits.add(wait));
  }

  /** Settles a pending wait; the first settle wins, across processes on the same file. */
  async settleWait(id: string, outcome: WaitOutcome): Promise<WaitSettlement> {
    return this.#write(() => this.#waits.settle(id, outcome));
  }

  /** The session's waits in the order they were added, filtered by status and/or tool call. */
  async getWaits(filter?: WaitFilter): Promise<StoredWait[]> {
    this.#group?.flushFor(this.#key);
    return this.#waits.list(filter);
  }

  // Sub-stores

  /**
   * A child store on the same database. Durable: session `<identifier>::<namespace>`, the same
   * history on every call and in every process. Ephemeral (default): a new, empty session
   * `<identifier>::<namespace>~<uuid>` per call, kept in the file as a record of that run.
   */
  createSubAgentStore(namespace: string, options?: SubAgentStoreOptions): Promise<StoreAdapter>;
  /** @deprecated Pass options: `createSubAgentStore(namespace, { durable: true })`. */
  createSubAgentStore(namespace: string, durable?: boolean): Promise<StoreAdapter>;
  async createSubAgentStore(namespace: string, options?: SubAgentStoreOptions | boolean): Promise<StoreAdapter> {
    const { sessionId, child } = subStoreSession(this, namespace, options, randomUUID);
    return new SqliteStore({ ...this.#options, database: this.db, sessionId }, child);
  }
}

/** Opens the file, naming it (and what to do) when that fails, e.g. in a folder that does not exist. */
function openDatabase(dbPath: string, sessionId: string, driver: SqliteDriverChoice | undefined): SqliteDatabase {
  try {
    return openSqliteDatabase(dbPath, { driver });
  } catch (error) {
    if (SqliteDriverError.isInstance(error)) throw error;
    const reason = error instanceof Error ? error.message : String(error);
    throw new ConfigurationError(
      `SqliteStore session "${sessionId}": cannot open the database file ${dbPath} (${reason}). Create its folder first or pass another dbPath. Nothing was changed.`,
      { cause: error },
    );
  }
}
