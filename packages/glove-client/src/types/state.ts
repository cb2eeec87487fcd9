import type { BranchPoint, InboxItem, Message, Task } from "glove-core";
import type { ErrorInfo, GloveStats, WireSlot } from "./wire.js";

export type { GloveStats } from "./wire.js";

/**
 * Where the event stream stands. `idle`: nothing to connect to (local mode, or server mode before
 * the first message creates a conversation); `offline`: several attempts in a row failed (still
 * retrying, with backoff) or the server refused for good (`error` says why).
 */
export type ConnectionState = "idle" | "connecting" | "open" | "reconnecting" | "offline";

/** One problem with an answer, as glove-core's `checkAnswer` and glove-server's 400 report it. */
export interface SlotIssue {
  path: string;
  message: string;
}

/** A slot as the UI sees it: the wire slot plus the order it appeared in and the latest issues. */
export interface ClientSlot extends WireSlot {
  /** Increases with every new slot, so "newer" is well defined (`hide-on-new`). */
  seq: number;
  /** Problems with the last answer the user gave; cleared by the next valid one. */
  issues?: SlotIssue[];
}

/** Where an optimistic user message stands on its way to the agent. */
export type SendStatus = "queued" | "sending" | "sent" | "failed";

/** A user message shown before the agent's history holds it (optimistic). */
export interface PendingMessage {
  clientMessageId: string;
  text: string;
  /** Image previews (data: or http URLs). */
  images?: string[];
  status: SendStatus;
  error?: ErrorInfo;
  /** History length when it was sent: its persisted copy is at this index or later. */
  baseIndex: number;
}

/** Text streamed by a model call that never made it into history (the turn was aborted or failed). */
export interface InterruptedText {
  /** History length at the time: the text is shown after that many messages. */
  at: number;
  text: string;
  key: string;
}

/** A tool call seen through events whose result is not (yet) in the persisted history. */
export interface LiveTool {
  id: string;
  name: string;
  input: unknown;
  status: "running" | "success" | "error" | "aborted";
  data?: unknown;
  message?: string;
  renderData?: unknown;
}

/** Everything the reducer keeps; `timeline` is derived from it (see state/timeline.ts). */
export interface GloveState {
  /** The conversation (server mode) or session (local mode) this state belongs to. */
  conversationId: string | null;
  /** The persisted history, exactly as the store holds it. */
  messages: Message[];
  /** Positions of the history with alternatives (regenerate, edit), with every alternative. */
  branches: BranchPoint[];
  /** History index → the client message id that produced it, so its key survives reconciliation. */
  clientKeys: Record<number, string>;
  /** Text of the running model call not yet persisted. */
  streamingText: string;
  liveTools: LiveTool[];
  pending: PendingMessage[];
  interrupted: InterruptedText[];
  slots: ClientSlot[];
  nextSlotSeq: number;
  tasks: Task[];
  inbox: InboxItem[];
  stats: GloveStats;
  busy: boolean;
  turnId: string | null;
  isCompacting: boolean;
  connection: ConnectionState;
  /** The last failure worth showing (a failed turn, a refused connection); cleared by the next turn. */
  error: ErrorInfo | null;
}
