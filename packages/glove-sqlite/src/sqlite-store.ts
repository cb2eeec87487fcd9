import { randomUUID } from "node:crypto";
import BetterSqlite3 from "better-sqlite3";
import type { Database, Statement } from "better-sqlite3";
import type {
  InboxItem,
  InboxItemUpdate,
  Message,
  PermissionStatus,
  StoreAdapter,
  Task,
  TokenConsumptionCounter,
} from "glove-core";
import { SqliteStoreError } from "./errors.js";
import { decodeMessage, repairForInterruptedTools } from "glove-core";
import { migrate } from "./schema.js";

export interface SqliteStoreOptions {
  /** The database file (created when missing), or ":memory:". Ignored when `database` is given. */
  dbPath?: string;
  /** An open better-sqlite3 handle to share (e.g. several sessions in one process); not closed by `close()`. */
  database?: Database;
  /** The conversation this store reads and writes. */
  sessionId: string;
  /** How long a write waits for another process's write lock, in ms. Default 5000. */
  busyTimeoutMs?: number;
  /**
   * Record an `aborted` result for tool calls left without one by a process that died mid-tool,
   * when the conversation moves on (docs/decisions/0006). Default true.
   */
  repairInterruptedToolCalls?: boolean;
}

interface SessionRow {
  message_count: number;
  last_compaction_seq: number | null;
  tokens_in: number;
  tokens_out: number;
  turns: number;
}

interface InboxRow {
  item_id: string;
  tag: string;
  request: string;
  response: string | null;
  status: string;
  blocking: number;
  created_at: string;
  resolved_at: string | null;
}

interface TaskRow {
  task_id: string;
  content: string;
  active_form: string;
  status: string;
}

interface ChildInfo {
  parentId: string;
  namespace: string;
  durable: boolean;
}

const TASK_STATUSES = new Set(["pending", "in_progress", "completed"]);
const INBOX_STATUSES = new Set(["pending", "resolved", "consumed"]);
const PERMISSION_STATUSES = new Set(["granted", "denied", "unset"]);

/**
 * A `StoreAdapter` on SQLite (better-sqlite3): one file holds any number of conversations, safe
 * for several processes (WAL, IMMEDIATE write transactions, busy timeout). Implements every
 * optional capability — tasks (with `replaceTasks`), permissions, inbox, durable and ephemeral
 * sub-stores, `messageCount` and the `getMessagesSinceLastCompaction` fast path (both O(1) in
 * the history length, plus the messages returned).
 *
 * Calls run synchronously inside their async wrappers, so one process's appends land in call order.
 */
export class SqliteStore implements StoreAdapter {
  readonly identifier: string;
  /** The underlying connection (shared with sub-stores). */
  readonly db: Database;
  readonly #ownsDb: boolean;
  readonly #where: string;
  readonly #repair: boolean;
  readonly #options: SqliteStoreOptions;
  readonly #s: ReturnType<typeof prepareStatements>;
  readonly #append: (msgs: Message[]) => void;

  constructor(options: SqliteStoreOptions);
  /** @internal sub-store constructor */
  constructor(options: SqliteStoreOptions, child: ChildInfo);
  constructor(options: SqliteStoreOptions, child?: ChildInfo) {
    const { sessionId } = options;
    if (typeof sessionId !== "string" || sessionId.length === 0) {
      throw new TypeError("SqliteStore: sessionId must be a non-empty string.");
    }
    this.identifier = sessionId;
    this.#options = options;
    this.#repair = options.repairInterruptedToolCalls ?? true;
    if (options.database) {
      this.db = options.database;
      this.#ownsDb = false;
    } else {
      if (!options.dbPath) throw new TypeError(`SqliteStore session "${sessionId}": pass dbPath (a file or ":memory:") or database.`);
      this.db = new BetterSqlite3(options.dbPath);
      this.#ownsDb = true;
    }
    this.#where = `SQLite database ${this.db.name}`;
    try {
      if (this.#ownsDb) {
        this.db.pragma(`busy_timeout = ${Math.max(0, Math.floor(options.busyTimeoutMs ?? 5000))}`);
        this.db.pragma("journal_mode = WAL");
        this.db.pragma("synchronous = NORMAL");
      }
      migrate(this.db, sessionId, this.#where);
      this.#s = prepareStatements(this.db);
      this.#s.ensureSession.run({
        session_id: sessionId,
        parent_id: child?.parentId ?? null,
        namespace: child?.namespace ?? null,
        durable: child ? (child.durable ? 1 : 0) : null,
        created_at: new Date().toISOString(),
      });
    } catch (error) {
      if (this.#ownsDb) this.db.close();
      throw error;
    }
    this.#append = this.db.transaction((msgs: Message[]) => this.#appendInTransaction(msgs)).immediate;
  }

  /** Closes the connection when this store opened it (`dbPath`); a no-op for shared handles and sub-stores. */
  close(): void {
    if (this.#ownsDb && this.db.open) this.db.close();
  }

  // ── Messages ──────────────────────────────────────────────────────────────────────────────

  async getMessages(): Promise<Message[]> {
    return this.#decodeRows(this.#s.messagesFrom.all(this.identifier, 0) as Array<{ seq: number; body: unknown }>);
  }

  async appendMessages(msgs: Message[]): Promise<void> {
    if (msgs.length === 0) return;
    this.#append(msgs);
  }

  async messageCount(): Promise<number> {
    return this.#session().message_count;
  }

  /** The last compaction summary and what follows (everything when there is none); one indexed range read. */
  async getMessagesSinceLastCompaction(): Promise<Message[]> {
    const from = this.#session().last_compaction_seq ?? 0;
    return this.#decodeRows(this.#s.messagesFrom.all(this.identifier, from) as Array<{ seq: number; body: unknown }>);
  }

  #appendInTransaction(msgs: Message[]): void {
    const session = this.#session();
    let seq = session.message_count;
    let lastCompaction = session.last_compaction_seq;
    const rows: Message[] = [];
    if (this.#repair && seq > 0) {
      const tail = this.#s.messageAt.get(this.identifier, seq - 1) as { seq: number; body: unknown } | undefined;
      const repair = repairForInterruptedTools(tail ? this.#decodeRow(tail) : undefined, msgs);
      if (repair) rows.push(repair);
    }
    rows.push(...msgs);
    const now = new Date().toISOString();
    for (const message of rows) {
      let body: string;
      try {
        body = JSON.stringify(message);
      } catch (error) {
        throw new SqliteStoreError(this.identifier, `cannot store a message that is not JSON-serialisable: ${String(error)}`);
      }
      if (message.is_compaction === true) lastCompaction = seq;
      this.#s.insertMessage.run(this.identifier, seq, message.is_compaction === true ? 1 : 0, body, now);
      seq += 1;
    }
    this.#s.setMessageCount.run(seq, lastCompaction, this.identifier);
  }

  #decodeRows(rows: Array<{ seq: number; body: unknown }>): Message[] {
    return rows.map((row) => this.#decodeRow(row));
  }

  #decodeRow(row: { seq: number; body: unknown }): Message {
    const decoded = decodeMessage(row.body);
    if ("problem" in decoded) {
      throw new SqliteStoreError(
        this.identifier,
        `message ${row.seq} in ${this.#where} is corrupt: ${decoded.problem}. ` +
          `Nothing was changed or deleted; repair that row of glove_messages (session_id, seq) to continue.`,
        "GLOVE_STORE_CORRUPT",
      );
    }
    return decoded.message;
  }

  #session(): SessionRow {
    const row = this.#s.session.get(this.identifier) as SessionRow | undefined;
    if (!row) {
      // Removed by hand while open: recreate it empty rather than fail every call.
      this.#s.ensureSession.run({
        session_id: this.identifier,
        parent_id: null,
        namespace: null,
        durable: null,
        created_at: new Date().toISOString(),
      });
      return { message_count: 0, last_compaction_seq: null, tokens_in: 0, tokens_out: 0, turns: 0 };
    }
    for (const key of ["message_count", "tokens_in", "tokens_out", "turns"] as const) {
      if (typeof row[key] !== "number" || !Number.isInteger(row[key])) {
        throw new SqliteStoreError(
          this.identifier,
          `the session row in ${this.#where} is corrupt: ${key} is ${JSON.stringify(row[key])}. Nothing was changed.`,
          "GLOVE_STORE_CORRUPT",
        );
      }
    }
    return row;
  }

  // ── Counters ──────────────────────────────────────────────────────────────────────────────

  async getTokenCount(): Promise<number> {
    const row = this.#session();
    return row.tokens_in + row.tokens_out;
  }

  async addTokens(args: TokenConsumptionCounter): Promise<void> {
    this.#s.addTokens.run(Math.trunc(args.tokens_in) || 0, Math.trunc(args.tokens_out) || 0, this.identifier);
  }

  async getTurnCount(): Promise<number> {
    return this.#session().turns;
  }

  async incrementTurn(): Promise<void> {
    this.#s.incrementTurn.run(this.identifier);
  }

  async resetCounters(): Promise<void> {
    this.#s.resetCounters.run(this.identifier);
  }

  // ── Tasks ─────────────────────────────────────────────────────────────────────────────────

  async getTasks(): Promise<Task[]> {
    return (this.#s.tasks.all(this.identifier) as TaskRow[]).map((row) => this.#decodeTask(row));
  }

  /** Appends new tasks; a task whose id exists is replaced in place. */
  async addTasks(tasks: Task[]): Promise<void> {
    this.db.transaction(() => {
      for (const task of tasks) this.#s.upsertTask.run(this.#taskParams(task));
    }).immediate();
  }

  async replaceTasks(tasks: Task[]): Promise<void> {
    this.db.transaction(() => {
      this.#s.deleteTasks.run(this.identifier);
      for (const task of tasks) this.#s.upsertTask.run(this.#taskParams(task));
    }).immediate();
  }

  async updateTask(taskId: string, updates: Partial<Task>): Promise<void> {
    this.db.transaction(() => {
      const row = this.#s.task.get(this.identifier, taskId) as TaskRow | undefined;
      if (!row) {
        throw new SqliteStoreError(this.identifier, `cannot update task "${taskId}": no task has that id. Add it with addTasks first.`);
      }
      const next = { ...this.#decodeTask(row), ...definedOnly(updates), id: taskId };
      this.#s.upsertTask.run(this.#taskParams(next));
    }).immediate();
  }

  #taskParams(task: Task) {
    if (!TASK_STATUSES.has(task.status)) {
      throw new SqliteStoreError(this.identifier, `task "${task.id}" has status ${JSON.stringify(task.status)}; expected pending, in_progress or completed.`);
    }
    return { session_id: this.identifier, task_id: task.id, content: task.content, active_form: task.activeForm, status: task.status };
  }

  #decodeTask(row: TaskRow): Task {
    if (!TASK_STATUSES.has(row.status) || typeof row.content !== "string" || typeof row.active_form !== "string") {
      throw new SqliteStoreError(
        this.identifier,
        `task "${row.task_id}" in ${this.#where} is corrupt (status ${JSON.stringify(row.status)}). Nothing was changed.`,
        "GLOVE_STORE_CORRUPT",
      );
    }
    return { id: row.task_id, content: row.content, activeForm: row.active_form, status: row.status as Task["status"] };
  }

  // ── Permissions ───────────────────────────────────────────────────────────────────────────

  async getPermission(toolName: string): Promise<PermissionStatus> {
    const row = this.#s.permission.get(this.identifier, toolName) as { status: string } | undefined;
    if (!row) return "unset";
    if (!PERMISSION_STATUSES.has(row.status)) {
      throw new SqliteStoreError(
        this.identifier,
        `the permission of "${toolName}" in ${this.#where} is corrupt (${JSON.stringify(row.status)}). Nothing was changed.`,
        "GLOVE_STORE_CORRUPT",
      );
    }
    return row.status as PermissionStatus;
  }

  async setPermission(toolName: string, status: PermissionStatus): Promise<void> {
    if (!PERMISSION_STATUSES.has(status)) {
      throw new SqliteStoreError(this.identifier, `permission status must be granted, denied or unset, not ${JSON.stringify(status)}.`);
    }
    this.#s.setPermission.run(this.identifier, toolName, status);
  }

  // ── Inbox ─────────────────────────────────────────────────────────────────────────────────

  async getInboxItems(): Promise<InboxItem[]> {
    return (this.#s.inbox.all(this.identifier) as InboxRow[]).map((row) => this.#decodeInbox(row));
  }

  async addInboxItem(item: InboxItem): Promise<void> {
    if (!INBOX_STATUSES.has(item.status)) {
      throw new SqliteStoreError(this.identifier, `inbox item "${item.id}" has status ${JSON.stringify(item.status)}.`);
    }
    this.#s.upsertInbox.run({
      session_id: this.identifier,
      item_id: item.id,
      tag: item.tag,
      request: item.request,
      response: item.response ?? null,
      status: item.status,
      blocking: item.blocking ? 1 : 0,
      created_at: item.created_at,
      resolved_at: item.resolved_at ?? null,
    });
  }

  /** Changes status, response and resolved_at only; another process may call it on the same database. */
  async updateInboxItem(itemId: string, updates: InboxItemUpdate): Promise<void> {
    if (updates.status !== undefined && !INBOX_STATUSES.has(updates.status)) {
      throw new SqliteStoreError(this.identifier, `inbox status must be pending, resolved or consumed, not ${JSON.stringify(updates.status)}.`);
    }
    const result = this.#s.updateInbox.run({
      session_id: this.identifier,
      item_id: itemId,
      set_status: updates.status === undefined ? 0 : 1,
      status: updates.status ?? null,
      set_response: updates.response === undefined ? 0 : 1,
      response: updates.response ?? null,
      set_resolved_at: updates.resolved_at === undefined ? 0 : 1,
      resolved_at: updates.resolved_at ?? null,
    });
    if (result.changes === 0) {
      throw new SqliteStoreError(this.identifier, `cannot update inbox item "${itemId}": no item has that id in this session.`);
    }
  }

  async getResolvedInboxItems(): Promise<InboxItem[]> {
    return (this.#s.inboxByStatus.all(this.identifier, "resolved") as InboxRow[]).map((row) => this.#decodeInbox(row));
  }

  #decodeInbox(row: InboxRow): InboxItem {
    const ok =
      INBOX_STATUSES.has(row.status) &&
      typeof row.tag === "string" &&
      typeof row.request === "string" &&
      (row.response === null || typeof row.response === "string") &&
      (row.blocking === 0 || row.blocking === 1) &&
      typeof row.created_at === "string" &&
      (row.resolved_at === null || typeof row.resolved_at === "string");
    if (!ok) {
      throw new SqliteStoreError(
        this.identifier,
        `inbox item "${row.item_id}" in ${this.#where} is corrupt (status ${JSON.stringify(row.status)}, blocking ${JSON.stringify(row.blocking)}). Nothing was changed.`,
        "GLOVE_STORE_CORRUPT",
      );
    }
    return {
      id: row.item_id,
      tag: row.tag,
      request: row.request,
      response: row.response,
      status: row.status as InboxItem["status"],
      blocking: row.blocking === 1,
      created_at: row.created_at,
      resolved_at: row.resolved_at,
    };
  }

  // ── Sub-stores ────────────────────────────────────────────────────────────────────────────

  /**
   * A child store on the same database. Durable: session `<identifier>::<namespace>`, the same
   * history on every call and in every process. Ephemeral (default): a new, empty session
   * `<identifier>::<namespace>~<uuid>` per call, kept in the file as a record of that run.
   */
  async createSubAgentStore(namespace: string, durable = false): Promise<StoreAdapter> {
    const base = `${this.identifier}::${namespace}`;
    const sessionId = durable ? base : `${base}~${randomUUID()}`;
    return new SqliteStore(
      { ...this.#options, database: this.db, sessionId },
      { parentId: this.identifier, namespace, durable },
    );
  }
}

function definedOnly<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}

function prepareStatements(db: Database) {
  const p = (sql: string): Statement => db.prepare(sql);
  return {
    ensureSession: p(
      `INSERT INTO glove_sessions (session_id, parent_id, namespace, durable, created_at)
       VALUES (@session_id, @parent_id, @namespace, @durable, @created_at)
       ON CONFLICT (session_id) DO NOTHING`,
    ),
    session: p(
      "SELECT message_count, last_compaction_seq, tokens_in, tokens_out, turns FROM glove_sessions WHERE session_id = ?",
    ),
    messagesFrom: p("SELECT seq, body FROM glove_messages WHERE session_id = ? AND seq >= ? ORDER BY seq"),
    messageAt: p("SELECT seq, body FROM glove_messages WHERE session_id = ? AND seq = ?"),
    insertMessage: p("INSERT INTO glove_messages (session_id, seq, is_compaction, body, created_at) VALUES (?, ?, ?, ?, ?)"),
    setMessageCount: p("UPDATE glove_sessions SET message_count = ?, last_compaction_seq = ? WHERE session_id = ?"),
    addTokens: p("UPDATE glove_sessions SET tokens_in = tokens_in + ?, tokens_out = tokens_out + ? WHERE session_id = ?"),
    incrementTurn: p("UPDATE glove_sessions SET turns = turns + 1 WHERE session_id = ?"),
    resetCounters: p("UPDATE glove_sessions SET tokens_in = 0, tokens_out = 0, turns = 0 WHERE session_id = ?"),
    tasks: p("SELECT task_id, content, active_form, status FROM glove_tasks WHERE session_id = ? ORDER BY position"),
    task: p("SELECT task_id, content, active_form, status FROM glove_tasks WHERE session_id = ? AND task_id = ?"),
    deleteTasks: p("DELETE FROM glove_tasks WHERE session_id = ?"),
    upsertTask: p(
      `INSERT INTO glove_tasks (session_id, task_id, position, content, active_form, status)
       VALUES (@session_id, @task_id,
               (SELECT COALESCE(MAX(position) + 1, 0) FROM glove_tasks WHERE session_id = @session_id),
               @content, @active_form, @status)
       ON CONFLICT (session_id, task_id) DO UPDATE SET
         content = excluded.content, active_form = excluded.active_form, status = excluded.status`,
    ),
    permission: p("SELECT status FROM glove_permissions WHERE session_id = ? AND tool_name = ?"),
    setPermission: p(
      `INSERT INTO glove_permissions (session_id, tool_name, status) VALUES (?, ?, ?)
       ON CONFLICT (session_id, tool_name) DO UPDATE SET status = excluded.status`,
    ),
    inbox: p(
      "SELECT item_id, tag, request, response, status, blocking, created_at, resolved_at FROM glove_inbox WHERE session_id = ? ORDER BY position",
    ),
    inboxByStatus: p(
      "SELECT item_id, tag, request, response, status, blocking, created_at, resolved_at FROM glove_inbox WHERE session_id = ? AND status = ? ORDER BY position",
    ),
    upsertInbox: p(
      `INSERT INTO glove_inbox (session_id, item_id, position, tag, request, response, status, blocking, created_at, resolved_at)
       VALUES (@session_id, @item_id,
               (SELECT COALESCE(MAX(position) + 1, 0) FROM glove_inbox WHERE session_id = @session_id),
               @tag, @request, @response, @status, @blocking, @created_at, @resolved_at)
       ON CONFLICT (session_id, item_id) DO UPDATE SET
         tag = excluded.tag, request = excluded.request, response = excluded.response, status = excluded.status,
         blocking = excluded.blocking, created_at = excluded.created_at, resolved_at = excluded.resolved_at`,
    ),
    updateInbox: p(
      `UPDATE glove_inbox SET
         status = CASE WHEN @set_status = 1 THEN @status ELSE status END,
         response = CASE WHEN @set_response = 1 THEN @response ELSE response END,
         resolved_at = CASE WHEN @set_resolved_at = 1 THEN @resolved_at ELSE resolved_at END
       WHERE session_id = @session_id AND item_id = @item_id`,
    ),
  };
}
