import type { ReactNode } from "react";
import type { InboxItem, Message, Task } from "glove-core";
import type {
  BranchActionResult,
  ClientSlot,
  ConnectionState,
  ErrorInfo,
  FrameScheduler,
  GloveSessionConfig,
  GloveStats,
  ImageInput,
  SlotAnswerResult,
  TimelineEntry,
  ToolEntry,
} from "glove-client";
import type { SlotRenderer } from "../types/tool.js";

/**
 * `useGlove`'s config: `server` selects server mode; otherwise `endpoint` or `model` (local mode).
 * glove-client's session config (tools drawn with React) plus what only rendering needs.
 */
export interface UseGloveConfig extends Omit<GloveSessionConfig<ReactNode>, "createModel"> {
  /** Extra slot renderers by name (e.g. for slots a server tool pushes, or to replace "permission_request"). */
  renderers?: Record<string, SlotRenderer> | undefined;
  /** How streaming text is batched (default: per animation frame). */
  frameScheduler?: FrameScheduler | undefined;
}

/** What `useGlove` returns: the state (the same in both modes) and the actions. */
export interface UseGloveReturn {
  mode: "local" | "server";
  busy: boolean;
  timeline: TimelineEntry[];
  streamingText: string;
  /** Every slot still known, with its status (settled ones too: `stay` keeps showing them). */
  slots: ClientSlot[];
  tasks: Task[];
  inbox: InboxItem[];
  stats: GloveStats;
  isCompacting: boolean;
  connection: ConnectionState;
  error: ErrorInfo | null;
  /** The local session id, or the server conversation id (null until there is one). */
  sessionId: string | null;
  /** The persisted history, every flag included. */
  messages: Message[];
  /** Shows the message at once and sends it (queued behind a running turn); returns its client id. */
  sendMessage(text: string, images?: ImageInput[]): string;
  abort(): Promise<void>;
  resolveSlot(slotId: string, value?: unknown): Promise<SlotAnswerResult>;
  rejectSlot(slotId: string, reason?: string): Promise<SlotAnswerResult>;
  /** Sends a failed message again. */
  retry(clientMessageId: string): void;
  /** Runs the last turn again; the old answer stays as a sibling branch (see `EntryBranch` on timeline entries). */
  regenerate(): Promise<BranchActionResult>;
  /** Replaces a user message (its entry's `messageId`) and continues from it; what followed stays on its branch. */
  editMessage(messageId: string, text: string): Promise<BranchActionResult>;
  /** Shows another alternative: pass one of an entry's `branch.siblings`. */
  switchBranch(messageId: string): Promise<BranchActionResult>;
  /** The slot drawn by its tool's render (or the named renderer, or a visible fallback). */
  renderSlot(slot: ClientSlot): ReactNode;
  /** A finished call drawn by its tool's `renderResult` from `renderData`; null without one. */
  renderToolResult(entry: ToolEntry): ReactNode;
  newConversation(): void;
  switchConversation(id: string): void;
}
