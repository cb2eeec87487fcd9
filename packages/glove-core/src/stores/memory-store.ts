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
  Task,
  TokenConsumptionCounter,
  WaitFilter,
  WaitOutcome,
  WaitSettlement,
} from "../types/index.js";
import { planAppendSync } from "./append-plan.js";
import { checkBranchRewrite, decodeBranch, type BranchRow, type CheckedRewrite } from "./branch-records.js";
import { clonePlain } from "./clone.js";
import { MemoryWaits } from "./memory-waits.js";
import { checkedPage } from "./message-page.js";
import { recordModelCallInSteps, runsOwnModelCallSteps } from "./model-call.js";
import { createRecordCodec, type RecordCodec } from "./record-codec.js";
import { requireSessionId, subStoreSession } from "./store-ids.js";
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

/** Options of a MemoryStore, as for the persistent stores. */
export interface MemoryStoreOptions {
  /**
   * Record an `aborted` result for tool calls left without one when the conversation moves on,
   * as SqliteStore and PostgresStore do (docs/decisions/0006, 0020). Default true; sub-stores
   * inherit it. Turn it off to replay raw transcripts.
   */
  repairInterruptedToolCalls?: boolean;
}

/**
 * In-process `StoreAdapter`: the default store of a `Glove`, and a good fit for scripts and tests.
 * Implements every optional capability (tasks, permissions, inbox, durable questions, subagent
 * stores, and the `getMessagesSinceLastCompaction` fast path). Everything is lost when the
 * instance is collected, so its "durable" questions last as long as the process.
 *
 * It accepts and refuses exactly what the persistent stores do, and keeps what they would read
 * back (docs/decisions/0011): messages as their JSON form, tasks and inbox items with their own
 * fields only; an append after unanswered tool calls first records `aborted` results for them,
 * and ephemeral sub-stores get a new identifier per call. All mutations are synchronous inside their async wrappers, so concurrent calls can
 * never interleave half-way through a write: appends land in call order.
 */
export class MemoryStore implements StoreAdapter {
  readonly identifier: string;

  readonly #codec: RecordCodec;
  readonly #options: MemoryStoreOptions;
  #messages: Message[] = [];
  /** Index of the last `is_compaction` message, or -1; kept on append so reads need no scan. */
  #lastCompactionIndex = -1;
  #tokensIn = 0;
  #tokensOut = 0;
  #turns = 0;
  // The maps below are made on first write: a server keeps one MemoryStore per conversation, and
  // most never use tasks, permissions, the inbox, branches or questions (six empty maps ≈ 1 KiB).
  /** Insertion-ordered by task id. */
  #tasks: Map<string, Task> | undefined;
  #permissions: Map<string, PermissionStatus> | undefined;
  /** Insertion-ordered by item id. */
  #inbox: Map<string, InboxItem> | undefined;
  #waits: MemoryWaits | undefined;
  /** Stretches set aside from the active branch, insertion-ordered by id, as the SQL stores keep their rows. */
  #branches: Map<string, BranchRow> | undefined;
  /** Durable sub-stores, one per namespace, so a subagent keeps its history across invocations. */
  #durableChildren: Map<string, MemoryStore> | undefined;

  /**
   * @param identifier the session id: a non-empty string without NUL or lone surrogates, at most
   * 1024 bytes in UTF-8, as for every store.
   */
  constructor(identifier: string, options: MemoryStoreOptions = {}) {
    this.identifier = requireSessionId(
      "MemoryStore",
      identifier,
      (displayId, detail) => new MemoryStoreError(displayId, detail, "GLOVE_STORE_INVALID"),
    );
    this.#codec = createRecordCodec({ error: (detail, code) => new MemoryStoreError(identifier, detail, code) });
    this.#options = { ...options };
  }

  // ── Messages ──────────────────────────────────────────────────────────────────────────────

  async getMessages(): Promise<Message[]> {
    return copy(this.#messages);
  }

  /**
   * Checks the whole batch first (a refused batch stores nothing), then keeps each message's JSON
   * form. With repair on, the same plan as the SQL stores' runs first: `aborted` results for calls
   * the batch moves on from, or a GLOVE_STORE_CONFLICT for results of calls already answered.
   */
  async appendMessages(msgs: Message[]): Promise<void> {
    this.#append(msgs);
  }

  #append(msgs: Message[]): void {
    const bodies = this.#codec.encodeMessages(msgs);
    if (bodies.length === 0) return;
    if (this.#options.repairInterruptedToolCalls !== false) {
      const at = {
        count: this.#messages.length,
        lastCompaction: this.#lastCompactionIndex < 0 ? null : this.#lastCompactionIndex,
      };
      const plan = planAppendSync(at, msgs, ({ from, to }) => this.#messages.slice(from, to));
      if (plan.late.length > 0) throw this.#codec.lateResults(plan.late);
      if (plan.repair) this.#keep(this.#codec.encodeMessage(plan.repair));
    }
    for (const body of bodies) this.#keep(body);
  }

  #keep(body: string): void {
    const message = JSON.parse(body) as Message;
    if (message.is_compaction === true) this.#lastCompactionIndex = this.#messages.length;
    this.#messages.push(message);
  }

  /** Lets Context detect appends by other writers without reading the history. */
  async messageCount(): Promise<number> {
    return this.#messages.length;
  }

  /** Messages [offset, offset + limit) and the total; O(the page). */
  async getMessagePage(offset: number, limit: number): Promise<MessagePageResult> {
    const [from, count] = checkedPage(
      offset,
      limit,
      (detail) => new MemoryStoreError(this.identifier, detail, "GLOVE_STORE_INVALID"),
    );
    return { messages: copy(this.#messages.slice(from, from + count)), total: this.#messages.length };
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
    const { tokens_in, tokens_out } = this.#checkedTokens(args);
    this.#tokensIn += tokens_in;
    this.#tokensOut += tokens_out;
  }

  #checkedTokens(args: TokenConsumptionCounter): TokenConsumptionCounter {
    const checked = this.#codec.checkTokens(args);
    this.#codec.checkTokenTotal(this.#tokensIn + this.#tokensOut, checked);
    return checked;
  }

  /** Messages, tokens and one turn, all or nothing (everything is checked before anything changes). */
  async recordModelCall(call: ModelCallRecord): Promise<void> {
    if (!runsOwnModelCallSteps(this, MemoryStore.prototype)) {
      return recordModelCallInSteps(this, call, (tokens) => void this.#checkedTokens(tokens));
    }
    const { tokens_in, tokens_out } = this.#checkedTokens(call?.tokens);
    this.#append(call.messages);
    this.#tokensIn += tokens_in;
    this.#tokensOut += tokens_out;
    this.#turns += 1;
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
    return copy([...(this.#tasks?.values() ?? [])]);
  }

  /** Appends new tasks; a task whose id already exists replaces it in place, so ids stay unique. */
  async addTasks(tasks: Task[]): Promise<void> {
    const checked = this.#codec.checkTasks(tasks);
    for (const task of checked) (this.#tasks ??= new Map()).set(task.id, task);
  }

  /** Replaces the whole list at once (the task tool sends the complete list on every call). */
  async replaceTasks(tasks: Task[]): Promise<void> {
    this.#tasks = new Map(this.#codec.checkTasks(tasks).map((task) => [task.id, task]));
  }

  async updateTask(taskId: string, updates: Partial<Task>): Promise<void> {
    this.#codec.checkId("task", taskId);
    // A key present but undefined means "not updated", as in the SQL stores; and the id is the
    // map key, so an update must not silently re-key the task.
    const merged = this.#codec.mergeTaskUpdate(this.#tasks?.get(taskId), taskId, updates);
    (this.#tasks ??= new Map()).set(taskId, merged);
  }

  // ── Permissions ───────────────────────────────────────────────────────────────────────────

  async getPermission(toolName: string): Promise<PermissionStatus> {
    const name = this.#codec.checkToolName(toolName); // checked even when no permission is stored
    return this.#permissions?.get(name) ?? "unset";
  }

  async setPermission(toolName: string, status: PermissionStatus): Promise<void> {
    this.#codec.checkToolName(toolName);
    const checked = this.#codec.checkPermission(status);
    (this.#permissions ??= new Map()).set(toolName, checked);
  }

  // ── Inbox ─────────────────────────────────────────────────────────────────────────────────

  async getInboxItems(): Promise<InboxItem[]> {
    return copy([...(this.#inbox?.values() ?? [])]);
  }

  async addInboxItem(item: InboxItem): Promise<void> {
    const checked = this.#codec.checkInboxItem(item);
    (this.#inbox ??= new Map()).set(checked.id, checked);
  }

  /** Only the documented fields (status, response, resolved_at) change; anything else in `updates` is ignored. */
  async updateInboxItem(itemId: string, updates: InboxItemUpdate): Promise<void> {
    this.#codec.checkId("inbox item", itemId);
    const checked = this.#codec.checkInboxUpdate(updates);
    const item = this.#inbox?.get(itemId);
    if (!item) throw this.#codec.missingInboxItem(itemId);
    this.#inbox!.set(itemId, { ...item, ...checked });
  }

  /** Items answered but not yet consumed by the agent ("resolved" only, not "consumed"). */
  async getResolvedInboxItems(): Promise<InboxItem[]> {
    return copy([...(this.#inbox?.values() ?? [])].filter((item) => item.status === "resolved"));
  }

  /** Resolved → consumed, or false when the item is not resolved (the first claim wins). */
  async consumeInboxItem(itemId: string): Promise<boolean> {
    this.#codec.checkId("inbox item", itemId);
    const item = this.#inbox?.get(itemId);
    if (!item) throw this.#codec.missingInboxItem(itemId);
    if (item.status !== "resolved") return false;
    this.#inbox!.set(itemId, { ...item, status: "consumed" });
    return true;
  }

  // ── Branches ──────────────────────────────────────────────────────────────────────────────

  async getBranches(): Promise<StoredBranch[]> {
    return [...(this.#branches?.values() ?? [])].map((row) => decodeBranch(row) as StoredBranch);
  }

  /** Checks, then applies the whole rewrite synchronously: no other call can land half-way. */
  async rewriteBranches(change: BranchRewrite): Promise<BranchRewriteOutcome> {
    const checked = checkBranchRewrite(
      this.#codec,
      change,
      (detail) => new MemoryStoreError(this.identifier, `${detail}. Nothing was changed.`, "GLOVE_STORE_INVALID"),
    );
    if (!this.#stillAsRead(checked)) return { won: false };
    this.#messages.length = checked.keep;
    this.#lastCompactionIndex = this.#messages.findLastIndex((message) => message.is_compaction === true);
    for (const id of checked.remove) this.#branches?.delete(id);
    for (const row of checked.add) (this.#branches ??= new Map()).set(row.branch_id, row);
    for (const body of checked.append) this.#keep(body);
    return { won: true };
  }

  #stillAsRead({ expected, remove, add }: CheckedRewrite): boolean {
    if (this.#messages.length !== expected.count || (this.#messages.at(-1)?.id ?? null) !== expected.lastId)
      return false;
    if (!remove.every((id) => this.#branches?.has(id) === true)) return false;
    return add.every((row) => this.#branches?.has(row.branch_id) !== true || remove.includes(row.branch_id));
  }

  // ── Durable questions ─────────────────────────────────────────────────────────────────────

  /** Records a wait; an id already stored changes nothing (a replay adds again). */
  async addWait(wait: StoredWait): Promise<void> {
    (this.#waits ??= new MemoryWaits(this.#codec)).add(wait);
  }

  /** Settles a pending wait; the first settle wins, a later one gets the wait as it stands. */
  async settleWait(id: string, outcome: WaitOutcome): Promise<WaitSettlement> {
    return (this.#waits ??= new MemoryWaits(this.#codec)).settle(id, outcome);
  }

  /** The session's waits in the order they were added, filtered by status and/or tool call. */
  async getWaits(filter?: WaitFilter): Promise<StoredWait[]> {
    if (this.#waits) return this.#waits.list(filter);
    this.#codec.checkWaitFilter(filter);
    return [];
  }

  // ── Subagent stores ───────────────────────────────────────────────────────────────────────

  /**
   * Child store for a subagent, named as in every store. Non-durable (default): a fresh store per
   * call, `<identifier>::<namespace>~<uuid>`, so the subagent starts from nothing and no two runs
   * share an identifier. Durable: the same store per namespace, `<identifier>::<namespace>`, so
   * its history accumulates across invocations. Children inherit this store's options.
   */
  createSubAgentStore(namespace: string, options?: SubAgentStoreOptions): Promise<StoreAdapter>;
  /** @deprecated Pass options: `createSubAgentStore(namespace, { durable: true })`. */
  createSubAgentStore(namespace: string, durable?: boolean): Promise<StoreAdapter>;
  async createSubAgentStore(namespace: string, options?: SubAgentStoreOptions | boolean): Promise<StoreAdapter> {
    const { sessionId, child: info } = subStoreSession(this, namespace, options, () => crypto.randomUUID());
    if (!info.durable) return new MemoryStore(sessionId, this.#options);
    let child = this.#durableChildren?.get(sessionId);
    if (!child) {
      child = new MemoryStore(sessionId, this.#options);
      (this.#durableChildren ??= new Map()).set(sessionId, child);
    }
    return child;
  }
}
