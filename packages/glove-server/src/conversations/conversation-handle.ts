import type { BranchInfo } from "glove-core";
import type { Principal } from "../security/authenticate.js";
import type { ConversationRecord } from "../storage/types.js";
import type { EventLog } from "./event-log.js";

/** An answer to a slot as clients send it. */
export type SlotAnswer = { resolve: unknown } | { reject: unknown };

/** What a branch turn does (decision 0025): run the last turn again, or replace a user message and continue. */
export type BranchOp = { kind: "regenerate" } | { kind: "edit"; messageId: string; text: string };

/** What `POST …/abort` answers. */
export interface AbortOutcome {
  aborted: boolean;
  turnId?: string;
  status?: string;
  message?: string;
}

/**
 * A conversation as the routes use it. The single-process server implements it with the
 * conversation's Glove in memory (LiveConversation); the scale mode with a view on shared state
 * whose turns run on whichever instance holds them. Kept small so the default path stays direct.
 */
export interface ConversationHandle {
  /** Events with their ids, read by the SSE streams of this process. */
  readonly log: EventLog;
  /** Open event streams in this process. */
  subscribers: number;
  lastActive: number;
  /** The state a client starts from, consistent with `lastId`. */
  snapshot(): Promise<{ data: Record<string, unknown>; lastId: number }>;
  /** Resolves once the log holds the events up to `after` that exist (scale mode); no-op otherwise. */
  catchUp?(after: number): Promise<void>;
  startTurn(text: string, clientMessageId: string | undefined): Promise<{ turnId: string; duplicate: boolean }>;
  /**
   * Resolves once the turn has ended (or will not run: dropped from a queue). The per-principal
   * running-turn quota holds a slot until then; a handle without it frees the slot at once.
   */
  turnSettled?(turnId: string): Promise<void>;
  /** Applies an answer; throws HttpError 404/409/400 as the routes document. */
  answerSlot(slotId: string, answer: SlotAnswer): Promise<{ slotId: string; status: "resolved" | "rejected" }>;
  /**
   * How the question `slotId` was settled, from the store's durable record of it (it outlives
   * the process; the slot board does not): undefined when it was never asked in this
   * conversation, still waits, or the store keeps no waits. A replayed answer is recognised by it.
   */
  settledQuestion?(slotId: string): Promise<"resolved" | "rejected" | "cancelled" | undefined>;
  abortTurn(): Promise<AbortOutcome>;
  /**
   * Runs the last turn again from its user message (the old answer stays as a sibling branch);
   * resolves once the branch is set aside and the turn started. HttpError 409 while a turn runs
   * or a question waits, 400 when there is nothing to regenerate (decision 0025).
   */
  regenerate(): Promise<{ turnId: string }>;
  /**
   * Replaces the user message `messageId` of the active branch with `text` and runs a turn from
   * there; what followed stays on its branch. 404 for an id not on the active branch, 409 as for
   * `regenerate` and when another tab changed the branch first.
   */
  editMessage(messageId: string, text: string): Promise<{ turnId: string }>;
  /** The active branch and the positions where it has alternatives. */
  branches(): Promise<BranchInfo>;
  /** Makes the branch through message `messageId` active; 404 for an unknown id, 409 while a turn runs. */
  switchBranch(messageId: string): Promise<BranchInfo>;
}

/** The conversations a process serves (ConversationHost, or the scale mode's host). */
export interface ConversationHosting {
  readonly size: number;
  /** How many of `size` hibernate (no Glove, no replay frames; decision 0033). */
  readonly hibernated?: number;
  open(record: ConversationRecord, principal: Principal): Promise<ConversationHandle>;
  /** Drops the conversation: a running turn ends as interrupted, streams close. */
  forget(id: string): Promise<void>;
  closeAll(): Promise<void>;
}
