// The catalog's record of one conversation: below both the storage contract and the inspector's.

/** What a conversation's model calls added up to (the snapshot's `stats`). */
export interface ConversationStats {
  /** Model calls, a subagent's included (each `model_response(_complete)` event). */
  turns: number;
  /** Summed from `token_consumption` events. */
  tokens_in: number;
  tokens_out: number;
}

/** What the server keeps about a conversation besides its messages. */
export interface ConversationRecord {
  /** Unguessable (a random UUID). */
  id: string;
  /** The principal id that created it; nobody else sees it. */
  owner: string;
  agent: string;
  title: string | null;
  /** ISO-8601 */
  createdAt: string;
  updatedAt: string;
  /**
   * Event ids up to this one may have been handed out. A reopened conversation continues after
   * it, so ids stay strictly increasing across evictions, restarts and crashes.
   */
  eventIdsReserved: number;
  /** The turn that was running, set while it runs: after a crash it is reported as interrupted (or taken over). */
  runningTurnId: string | null;
  /** The running turn's message (null for other turns): a takeover sends it when the turn never stored it. */
  runningTurnText?: string | null;
  /** The history's length when the running turn started: a takeover tells from it what the turn stored. */
  runningTurnBase?: number | null;
  /** The client message id of the last turn, so a retried POST does not start a second turn. */
  lastClientMessageId: string | null;
  lastTurnId: string | null;
  /** How the last turn ended (absent or null before the first); "error" marks the conversation as failed in listings. */
  lastTurnStatus?: LastTurnStatus | null;
  /** The totals when the last turn ended (the store keeps no token counts); absent means none yet. */
  stats?: ConversationStats;
}

/** How a turn ended, as the catalog records it: "waiting" when it left memory waiting for a person. */
export type LastTurnStatus = "done" | "aborted" | "error" | "interrupted" | "waiting";
