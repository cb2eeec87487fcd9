import type { Principal } from "../security/authenticate.js";
import type { ConversationRecord } from "../storage/types.js";
import type { EventLog } from "./event-log.js";

/** An answer to a slot as clients send it. */
export type SlotAnswer = { resolve: unknown } | { reject: unknown };

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
  abortTurn(): Promise<AbortOutcome>;
}

/** The conversations a process serves (ConversationHost, or the scale mode's host). */
export interface ConversationHosting {
  readonly size: number;
  open(record: ConversationRecord, principal: Principal): Promise<ConversationHandle>;
  /** Drops the conversation: a running turn ends as interrupted, streams close. */
  forget(id: string): Promise<void>;
  closeAll(): Promise<void>;
}
