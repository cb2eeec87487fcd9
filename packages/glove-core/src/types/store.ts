import type { BranchRewrite, BranchRewriteOutcome, StoredBranch } from "./branches.js";
import type { TokenConsumptionCounter } from "./events.js";
import type { Message } from "./message.js";
import type { StoredWait, WaitFilter, WaitOutcome, WaitSettlement } from "./waits.js";

/** How `createSubAgentStore` makes a subagent's store. */
export interface SubAgentStoreOptions {
  /** The same store (and history) for the namespace on every call. Default false: a new, empty one per call. */
  durable?: boolean | undefined;
}

/** Where a task stands in the agent's task list. */
export type TaskStatus = "pending" | "in_progress" | "completed";

/** One entry of the agent's task list, as the task tool writes it and a store keeps it. */
export interface Task {
  id: string;
  /** Imperative form, e.g. "Fix the login bug". */
  content: string;
  /** Present-continuous form, e.g. "Fixing the login bug". */
  activeForm: string;
  status: TaskStatus;
}

/** A tool's stored permission; "unset" means the user has not been asked yet. */
export type PermissionStatus = "granted" | "denied" | "unset";

/** Where an inbox item stands: waiting, answered, or answered and already shown to the model. */
export type InboxItemStatus = "pending" | "resolved" | "consumed";

/**
 * An asynchronous request the agent posted and an outside party answers later
 * (a webhook, a cron job, an admin). Plain text both ways.
 */
export interface InboxItem {
  id: string;
  /** Short machine-friendly label, e.g. "restock_check". */
  tag: string;
  /** What the agent is waiting for, in natural language. */
  request: string;
  /** The answer, set when the item is resolved. */
  response: string | null;
  status: InboxItemStatus;
  /** Blocking items are reminded to the model on every request until resolved. */
  blocking: boolean;
  /** ISO-8601 timestamps. */
  created_at: string;
  resolved_at: string | null;
}

/** The fields of an inbox item a store may change after it is posted. */
export type InboxItemUpdate = Partial<Pick<InboxItem, "status" | "response" | "resolved_at">>;

/** Conversation persistence. The optional groups enable built-in tools when present. */
export interface StoreAdapter {
  identifier: string;
  getMessages(): Promise<Message[]>;
  appendMessages(msgs: Message[]): Promise<void>;
  getTokenCount(): Promise<number>;
  addTokens(args: TokenConsumptionCounter): Promise<void>;
  getTurnCount(): Promise<number>;
  incrementTurn(): Promise<void>;
  resetCounters(): Promise<void>;

  /**
   * Optional: stores one model call at once — appends `call.messages` (as `appendMessages` does,
   * with the same checks and repair), adds `call.tokens` (as `addTokens`, refused the same way) and
   * counts one turn (as `incrementTurn`), all or nothing: a refused token count or message writes
   * nothing. The agent loop uses it after every model call when present (one write instead of
   * three); without it, it makes the three calls. A subclass or wrapper that changes
   * `appendMessages`, `addTokens` or `incrementTurn` must change (or hide) this too.
   */
  recordModelCall?(call: ModelCallRecord): Promise<void>;

  // Optional — tasks
  getTasks?(): Promise<Task[]>;
  addTasks?(tasks: Task[]): Promise<void>;
  updateTask?(taskId: string, updates: Partial<Task>): Promise<void>;
  /** Optional: replace the whole task list at once (the task tool prefers it when present). */
  replaceTasks?(tasks: Task[]): Promise<void>;

  // Optional — permissions
  getPermission?(toolName: string): Promise<PermissionStatus>;
  setPermission?(toolName: string, status: PermissionStatus): Promise<void>;

  // Optional — inbox
  getInboxItems?(): Promise<InboxItem[]>;
  addInboxItem?(item: InboxItem): Promise<void>;
  updateInboxItem?(itemId: string, updates: InboxItemUpdate): Promise<void>;
  getResolvedInboxItems?(): Promise<InboxItem[]>;
  /**
   * Optional: marks the item consumed if it is resolved, in one conditional write. Of any number
   * of calls for one item — from any process — the first gets true and the rest false; a pending or
   * already consumed item also answers false and is left as it is. An unknown id rejects like
   * `updateInboxItem`. Glove's `inbox: { wake: true }` claims answers with it.
   */
  consumeInboxItem?(itemId: string): Promise<boolean>;

  // Optional — durable questions (all three or none): waits that outlive the process
  /** Records a wait; adding an id that is already stored changes nothing. */
  addWait?(wait: StoredWait): Promise<void>;
  /** Settles a pending wait. The first settle wins; a later one (or an unknown id) returns `won: false`. */
  settleWait?(id: string, outcome: WaitOutcome): Promise<WaitSettlement>;
  /** Stored waits, by call and then position (the order they were added in). */
  getWaits?(filter?: WaitFilter): Promise<StoredWait[]>;

  // Optional — branches (both or neither): regenerate, edit and switch keep every alternative (decision 0025)
  /** The stretches set aside from the active branch, in the order they were added. */
  getBranches?(): Promise<StoredBranch[]>;
  /**
   * Applies a `BranchRewrite` at once or not at all. `won: false` (nothing written) when the active
   * branch's message count or last id differ from `expected`, or a stretch in `remove` is gone: of
   * two writers that read the same state, exactly one wins. Messages are kept as given (no repair).
   */
  rewriteBranches?(change: BranchRewrite): Promise<BranchRewriteOutcome>;

  // Optional — subagent stores
  /**
   * A child store for a subagent: `{ durable: true }` the same history on every call, otherwise a
   * new, empty one per call. A bare boolean is the deprecated form of `durable`; implementations
   * read both with `subStoreSession`.
   */
  createSubAgentStore?(namespace: string, options?: SubAgentStoreOptions | boolean): Promise<StoreAdapter>;

  /**
   * Optional fast path: the messages from the last `is_compaction` message onward
   * (all messages when there is none). Context uses it when present so the model's
   * view never requires loading the whole history.
   */
  getMessagesSinceLastCompaction?(): Promise<Message[]>;
  /**
   * Optional: how many messages the conversation holds. Lets Context keep its
   * in-memory view across calls and re-read only when another writer appended.
   */
  messageCount?(): Promise<number>;
  /**
   * Optional: messages [offset, offset + limit) in order and how many there are in all, read
   * without loading the rest of the history (tools that page through long conversations use it).
   */
  getMessagePage?(offset: number, limit: number): Promise<MessagePageResult>;
}

/** What one model call leaves in a store (`StoreAdapter.recordModelCall`). */
export interface ModelCallRecord {
  /** The model's messages, appended in order. */
  messages: Message[];
  /** The call's token counts, added to the session's. */
  tokens: TokenConsumptionCounter;
}

/** One page of a conversation's history, from `getMessagePage`. */
export interface MessagePageResult {
  messages: Message[];
  /** How many messages the conversation holds. */
  total: number;
}
