import type { StoreAdapter } from "../../types/index.js";

/** Optional capability groups a store may implement; see `StoreConformanceOptions.require`. */
export type StoreCapability =
  | "tasks"
  | "replaceTasks"
  | "permissions"
  | "inbox"
  | "consumeInboxItem"
  | "waits"
  | "subAgentStores"
  | "messageCount"
  | "messagesSinceLastCompaction"
  | "messagePage"
  | "branches"
  | "recordModelCall";

/** How to run the store conformance suite against your store. */
export interface StoreConformanceOptions {
  /**
   * A store for `sessionId`. Calling it again with the same id must give a store over the same
   * data: persistent stores should open a new instance (new connection) so the suite also proves
   * that everything survives a reopen and is visible to a second writer; an in-memory store may
   * return the same instance. Every case uses its own, fresh session ids.
   */
  createStore(sessionId: string): Promise<StoreAdapter>;
  /** Runs after every case, passed or failed: close the stores `createStore` opened for it. */
  cleanup?(): Promise<void>;
  /**
   * Capabilities the store must implement. A case for an optional group the store lacks passes
   * (after checking the group is not half-implemented) unless the group is listed here.
   */
  require?: StoreCapability[];
  /** Prefix of the session ids the cases create (default "conformance"). */
  sessionPrefix?: string;
  /**
   * Seed of the random-messages case (default: a new one per run, named in its failures so a
   * failure can be repeated).
   */
  propertySeed?: number;
  /** Rounds of the random cases (messages, tool-call turns, ids), each in fresh sessions (default 4). */
  propertyRuns?: number;
  /**
   * Whether the store records `aborted` results for tool calls left unanswered when the
   * conversation moves on, and refuses results for calls already answered (GLOVE_STORE_CONFLICT),
   * as MemoryStore, SqliteStore and PostgresStore do (docs/decisions/0006, 0020). Default true.
   * Pass false for a store that leaves this to the agent (Agent.ask repairs before each request):
   * the cases then check that it stores every batch exactly as given.
   */
  repairsInterruptedToolCalls?: boolean;
}

/** One named check of the conformance suite, to hand to your test runner. */
export interface StoreConformanceCase {
  name: string;
  /** Resolves when the store conforms; rejects with a descriptive Error on the first violation. */
  run(): Promise<void>;
}
