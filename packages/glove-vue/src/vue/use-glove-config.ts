import type { ComputedRef, VNodeChild } from "vue";
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
 * glove-client's session config (tools drawn with Vue) plus what only rendering needs.
 */
export interface UseGloveConfig extends Omit<GloveSessionConfig<VNodeChild>, "createModel"> {
  /** Extra slot renderers by name (e.g. for slots a server tool pushes, or to replace "permission_request"). */
  renderers?: Record<string, SlotRenderer> | undefined;
  /** How streaming text is batched (default: per animation frame). */
  frameScheduler?: FrameScheduler | undefined;
}

/**
 * What `useGlove` returns: the state as read-only refs (the same in both modes; destructure
 * freely, each stays reactive) and the actions.
 */
export interface UseGloveReturn {
  readonly mode: "local" | "server";
  readonly busy: ComputedRef<boolean>;
  readonly timeline: ComputedRef<TimelineEntry[]>;
  readonly streamingText: ComputedRef<string>;
  /** Every slot still known, with its status (settled ones too: `stay` keeps showing them). */
  readonly slots: ComputedRef<ClientSlot[]>;
  readonly tasks: ComputedRef<Task[]>;
  readonly inbox: ComputedRef<InboxItem[]>;
  readonly stats: ComputedRef<GloveStats>;
  readonly isCompacting: ComputedRef<boolean>;
  readonly connection: ComputedRef<ConnectionState>;
  readonly error: ComputedRef<ErrorInfo | null>;
  /** The local session id, or the server conversation id (null until there is one). */
  readonly sessionId: ComputedRef<string | null>;
  /** The persisted history, every flag included. */
  readonly messages: ComputedRef<Message[]>;
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
  renderSlot(slot: ClientSlot): VNodeChild;
  /** A finished call drawn by its tool's `renderResult` from `renderData`; null without one. */
  renderToolResult(entry: ToolEntry): VNodeChild;
  newConversation(): void;
  switchConversation(id: string): void;
}
