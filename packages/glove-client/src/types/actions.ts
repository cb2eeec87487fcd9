import type { ConnectionState, SendStatus, SlotIssue } from "./state.js";
import type { ConversationSnapshot, ErrorInfo, WireEvent } from "./wire.js";

/** What the client itself does to the state (on top of the agent's events). */
export type ClientAction =
  | { type: "user_message_queued"; clientMessageId: string; text: string; images?: string[] }
  | { type: "user_message_status"; clientMessageId: string; status: SendStatus; error?: ErrorInfo }
  /** The history holds the message under another text (a preprocessing plugin rewrote it): drop the optimistic copy. */
  | { type: "user_message_removed"; clientMessageId: string }
  | { type: "slot_issues"; slotId: string; issues: SlotIssue[] | null }
  | { type: "connection"; state: ConnectionState; error?: ErrorInfo | null }
  | { type: "error"; error: ErrorInfo | null }
  /** A new or different conversation: everything goes, optionally replaced by a snapshot. */
  | { type: "reset"; conversationId: string | null; snapshot?: ConversationSnapshot };

/** Anything the state reducer handles: an event from the agent or an action of the client. */
export type GloveAction = WireEvent | ClientAction;
