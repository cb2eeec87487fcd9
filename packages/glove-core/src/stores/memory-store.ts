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

/**
 * Deep copy used on the way in and out, so callers can never mutate the store through an object
 * they passed in or got back. Every field and flag survives (ARCHITECTURE decision 14).
 */
const copy = clonePlain;

/**
 * In-process `StoreAdapter`: the default store of a `Glove`, and a good fit for scripts and tests.
 * Implements every optional capability (tasks, permissions, inbox, subagent stores, and the
 * `getMessagesSinceLastCompaction` fast path). Everything is lost when the instance is collected.
 *
 * All mutations are synchronous inside their async wrappers, so concurrent calls can never
 * interleave half-way through a write: appends land in call order.
 */
export class MemoryStore implements StoreAdapter {
  readonly identifier: string;

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

  constructor(identifier: string) {
    this.identifier = identifier;
  }

  // ── Messages ──────────────────────────────────────────────────────────────────────────────

  async getMessages(): Promise<Message[]> {
    return copy(this.#messages);
  }

  async appendMessages(msgs: Message[]): Promise<void> {
    for (const message of msgs) {
      if (message.is_compaction) this.#lastCompactionIndex = this.#messages.length;
      this.#messages.push(copy(message));
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

  async addTokens(args: TokenConsumptionCounter): Promise<void> {
    this.#tokensIn += args.tokens_in;
    this.#tokensOut += args.tokens_out;
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
    for (const task of tasks) this.#tasks.set(task.id, copy(task));
  }

  /** Replaces the whole list at once (the task tool sends the complete list on every call). */
  async replaceTasks(tasks: Task[]): Promise<void> {
    this.#tasks = new Map(tasks.map((task) => [task.id, copy(task)]));
  }

  async updateTask(taskId: string, updates: Partial<Task>): Promise<void> {
    const task = this.#tasks.get(taskId);
    if (!task) {
      throw new Error(
        `MemoryStore "${this.identifier}": cannot update task "${taskId}" because no task has that id. ` +
          `Add it with addTasks first.`,
      );
    }
    // A key present but undefined means "not updated", as in the SQL stores; and the id is the
    // map key, so an update must not silently re-key the task.
    const defined = Object.fromEntries(Object.entries(copy(updates)).filter(([, v]) => v !== undefined));
    this.#tasks.set(taskId, { ...task, ...defined, id: taskId });
  }

  // ── Permissions ───────────────────────────────────────────────────────────────────────────

  async getPermission(toolName: string): Promise<PermissionStatus> {
    return this.#permissions.get(toolName) ?? "unset";
  }

  async setPermission(toolName: string, status: PermissionStatus): Promise<void> {
    this.#permissions.set(toolName, status);
  }

  // ── Inbox ─────────────────────────────────────────────────────────────────────────────────

  async getInboxItems(): Promise<InboxItem[]> {
    return copy([...this.#inbox.values()]);
  }

  async addInboxItem(item: InboxItem): Promise<void> {
    this.#inbox.set(item.id, copy(item));
  }

  async updateInboxItem(itemId: string, updates: InboxItemUpdate): Promise<void> {
    const item = this.#inbox.get(itemId);
    if (!item) {
      throw new Error(
        `MemoryStore "${this.identifier}": cannot update inbox item "${itemId}" because no item has that id.`,
      );
    }
    // Only the documented fields may change; anything else in `updates` is ignored.
    const next: InboxItem = { ...item };
    if (updates.status !== undefined) next.status = updates.status;
    if (updates.response !== undefined) next.response = updates.response;
    if (updates.resolved_at !== undefined) next.resolved_at = updates.resolved_at;
    this.#inbox.set(itemId, next);
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
