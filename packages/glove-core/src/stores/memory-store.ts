import type {
  InboxItem,
  InboxItemUpdate,
  Message,
  PermissionStatus,
  StoreAdapter,
  Task,
  TokenConsumptionCounter,
} from "../types/index.js";
import { clonePlain } from "./clone.js";
import { createRecordCodec, requireSessionId, type RecordCodec } from "./record-codec.js";
import { StoreSessionError } from "./store-session-error.js";

/**
 * Deep copy used on the way out, so callers can never mutate the store through an object they got
 * back. Every field and flag survives (docs/concepts/stores.md).
 */
const copy = clonePlain;

/**
 * A MemoryStore call was refused: input no store accepts (code GLOVE_STORE_INVALID, the same
 * refusals as SqliteStore and PostgresStore), or an unknown task or inbox item id (GLOVE_STORE).
 */
export class MemoryStoreError extends StoreSessionError {
  constructor(sessionId: string, detail: string, code = "GLOVE_STORE") {
    super("MemoryStore", sessionId, detail, code);
  }
}

/**
 * In-process `StoreAdapter`: the default store of a `Glove`, and a good fit for scripts and tests.
 * Implements every optional capability (tasks, permissions, inbox, subagent stores, and the
 * `getMessagesSinceLastCompaction` fast path). Everything is lost when the instance is collected.
 *
 * It accepts and refuses exactly what the persistent stores do, and keeps what they would read
 * back (docs/decisions/0011): messages as their JSON form, tasks and inbox items with their own
 * fields only. All mutations are synchronous inside their async wrappers, so concurrent calls can
 * never interleave half-way through a write: appends land in call order.
 */
export class MemoryStore implements StoreAdapter {
  readonly identifier: string;

  readonly #codec: RecordCodec;
  #messages: Message[] = [];
  /** Index of the last `is_compaction` message, or -1; kept on append so reads need no scan. */
  #lastCompactionIndex = -1;
  #tokensIn = 0;
  #tokensOut = 0;
  #turns = 0;
  /** Insertion-ordered by task id. */
  #tasks = new Map<string, Task>();
  #permissions = new Map<string, PermissionStatus>();
  /** Insertion-ordered by item id. */
  #inbox = new Map<string, InboxItem>();
  /** Durable sub-stores, one per namespace, so a subagent keeps its history across invocations. */
  #durableChildren = new Map<string, MemoryStore>();

  /** @param identifier the session id: a non-empty string without NUL or lone surrogates, as for every store. */
  constructor(identifier: string) {
    this.identifier = requireSessionId("MemoryStore", identifier, (displayId, detail) => new MemoryStoreError(displayId, detail, "GLOVE_STORE_INVALID"));
    this.#codec = createRecordCodec({ error: (detail, code) => new MemoryStoreError(identifier, detail, code) });
  }

  // ── Messages ──────────────────────────────────────────────────────────────────────────────

  async getMessages(): Promise<Message[]> {
    return copy(this.#messages);
  }

  /** Checks the whole batch first (a refused batch stores nothing), then keeps each message's JSON form. */
  async appendMessages(msgs: Message[]): Promise<void> {
    const bodies = this.#codec.encodeMessages(msgs);
    for (const body of bodies) {
      const message = JSON.parse(body) as Message;
      if (message.is_compaction === true) this.#lastCompactionIndex = this.#messages.length;
      this.#messages.push(message);
    }
  }

  /** Lets Context detect appends by other writers without reading the history. */
  async messageCount(): Promise<number> {
    return this.#messages.length;
  }

  /** The last compaction summary and everything after it (all messages when none); O(that slice). */
  async getMessagesSinceLastCompaction(): Promise<Message[]> {
    return copy(this.#messages.slice(Math.max(this.#lastCompactionIndex, 0)));
  }

  // ── Counters ──────────────────────────────────────────────────────────────────────────────

  async getTokenCount(): Promise<number> {
    return this.#tokensIn + this.#tokensOut;
  }

  /** Adds non-negative integer counts; refuses an add that would take the total past 2^53 − 1. */
  async addTokens(args: TokenConsumptionCounter): Promise<void> {
    const { tokens_in, tokens_out } = this.#codec.checkTokens(args);
    this.#codec.checkTokenTotal(this.#tokensIn + this.#tokensOut, { tokens_in, tokens_out });
    this.#tokensIn += tokens_in;
    this.#tokensOut += tokens_out;
  }

  async getTurnCount(): Promise<number> {
    return this.#turns;
  }

  async incrementTurn(): Promise<void> {
    this.#turns += 1;
  }

  /** Zeroes tokens and turns; messages stay, since compaction never deletes history. */
  async resetCounters(): Promise<void> {
    this.#tokensIn = 0;
    this.#tokensOut = 0;
    this.#turns = 0;
  }

  // ── Tasks ─────────────────────────────────────────────────────────────────────────────────

  async getTasks(): Promise<Task[]> {
    return copy([...this.#tasks.values()]);
  }

  /** Appends new tasks; a task whose id already exists replaces it in place, so ids stay unique. */
  async addTasks(tasks: Task[]): Promise<void> {
    for (const task of this.#codec.checkTasks(tasks)) this.#tasks.set(task.id, task);
  }

  /** Replaces the whole list at once (the task tool sends the complete list on every call). */
  async replaceTasks(tasks: Task[]): Promise<void> {
    this.#tasks = new Map(this.#codec.checkTasks(tasks).map((task) => [task.id, task]));
  }

  async updateTask(taskId: string, updates: Partial<Task>): Promise<void> {
    this.#codec.checkId("task", taskId);
    // A key present but undefined means "not updated", as in the SQL stores; and the id is the
    // map key, so an update must not silently re-key the task.
    this.#tasks.set(taskId, this.#codec.mergeTaskUpdate(this.#tasks.get(taskId), taskId, updates));
  }

  // ── Permissions ───────────────────────────────────────────────────────────────────────────

  async getPermission(toolName: string): Promise<PermissionStatus> {
    return this.#permissions.get(this.#codec.checkToolName(toolName)) ?? "unset";
  }

  async setPermission(toolName: string, status: PermissionStatus): Promise<void> {
    this.#codec.checkToolName(toolName);
    this.#permissions.set(toolName, this.#codec.checkPermission(status));
  }

  // ── Inbox ─────────────────────────────────────────────────────────────────────────────────

  async getInboxItems(): Promise<InboxItem[]> {
    return copy([...this.#inbox.values()]);
  }

  async addInboxItem(item: InboxItem): Promise<void> {
    const checked = this.#codec.checkInboxItem(item);
    this.#inbox.set(checked.id, checked);
  }

  /** Only the documented fields (status, response, resolved_at) change; anything else in `updates` is ignored. */
  async updateInboxItem(itemId: string, updates: InboxItemUpdate): Promise<void> {
    this.#codec.checkId("inbox item", itemId);
    const checked = this.#codec.checkInboxUpdate(updates);
    const item = this.#inbox.get(itemId);
    if (!item) throw this.#codec.missingInboxItem(itemId);
    this.#inbox.set(itemId, { ...item, ...checked });
  }

  /** Items answered but not yet consumed by the agent ("resolved" only, not "consumed"). */
  async getResolvedInboxItems(): Promise<InboxItem[]> {
    return copy([...this.#inbox.values()].filter((item) => item.status === "resolved"));
  }

  // ── Subagent stores ───────────────────────────────────────────────────────────────────────

  /**
   * Child store for a subagent, identified `${identifier}::${namespace}`. Non-durable (default):
   * a fresh store per call, so the subagent starts from nothing. Durable: the same store per
   * namespace, so its history accumulates across invocations.
   */
  async createSubAgentStore(namespace: string, durable = false): Promise<StoreAdapter> {
    const identifier = `${this.identifier}::${namespace}`;
    if (!durable) return new MemoryStore(identifier);
    let child = this.#durableChildren.get(namespace);
    if (!child) {
      child = new MemoryStore(identifier);
      this.#durableChildren.set(namespace, child);
    }
    return child;
  }
}
