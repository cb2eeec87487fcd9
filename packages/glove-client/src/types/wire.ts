import type { BranchPoint, InboxItem, Message, SubscriberEvent, Task, WireSlot } from "glove-core";

export type { SlotStatus, WireSlot } from "glove-core";

/**
 * The events both modes feed into the reducer. They are glove-server's wire events (see its
 * README): in server mode they arrive over SSE; in local mode the tab's own Glove, store and
 * display stack are observed and described with the same events, so one reducer serves both.
 * Slots are glove-core's `WireSlot` (its `SlotBoard` describes them on both sides); the other
 * shapes are repeated here so glove-client never depends on glove-server.
 */

/**
 * How a turn ended. "waiting": it waits for a person's answer to a stored question and left the
 * server's memory; for the page the turn is over, its question stays pending (answering it
 * resumes the turn with a new turn_start).
 */
export type TurnStatus = "done" | "aborted" | "error" | "interrupted" | "waiting";

/** What went wrong, as the server (or the local session) reports it. */
export interface ErrorInfo {
  code: string;
  message: string;
}

/** A conversation's whole state: glove-server's `GET /conversations/:id` answer and `snapshot` event. */
export interface ConversationSnapshot {
  id: string;
  agent?: string | null;
  title?: string | null;
  /** The full history, every flag included. */
  messages: Message[];
  slots: WireSlot[];
  tasks: Task[];
  inbox: InboxItem[];
  busy: boolean;
  turnId: string | null;
  /** Text streamed by the running model call and not yet in a persisted message. */
  streamingText: string;
  /** The conversation's totals as of `lastEventId` (glove-server; absent from older servers). */
  stats?: GloveStats;
  /** Positions of the history with alternatives (regenerate, edit); absent from older servers. */
  branches?: BranchPoint[];
  /** The event id this snapshot stands for (server mode). */
  lastEventId?: number | null;
}

/** Events that are not glove-core's own: turns, slots, persisted history, side lists, snapshots. */
export type SessionEvent =
  | { type: "turn_start"; turnId: string }
  | { type: "turn_end"; turnId: string; status: TurnStatus; error?: ErrorInfo }
  /** The turn continues on another server instance (its first one died): text streamed so far is void. */
  | { type: "turn_resumed"; turnId: string; attempt: number }
  | { type: "slot_push"; slot: WireSlot }
  | { type: "slot_settled"; slotId: string; status: "resolved" | "rejected" | "closed" }
  | { type: "messages_appended"; messages: Message[]; startIndex: number }
  /** The active branch changed (regenerate, edit, switch): keep the first `keep` messages, then `messages`; the branch points now. */
  | { type: "branches_changed"; keep: number; messages: Message[]; points: BranchPoint[] }
  | { type: "tasks"; tasks: Task[] }
  | { type: "inbox"; items: InboxItem[] }
  | { type: "snapshot"; snapshot: ConversationSnapshot };

/** Every event the reducer understands from the agent's side. */
/** glove-core's own `turn_resumed` (a stored question answered) reaches clients as the server's. */
export type WireEvent = Exclude<SubscriberEvent, { type: "turn_resumed" }> | SessionEvent;

/** The name of any event the reducer handles from the agent's side. */
export type WireEventType = WireEvent["type"];

/** Model calls and tokens used so far in the conversation. */
export interface GloveStats {
  /** Model calls. */
  turns: number;
  tokens_in: number;
  tokens_out: number;
}
