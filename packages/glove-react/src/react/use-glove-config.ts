import type { ReactNode } from "react";
import type {
  CompactionConfig,
  Glove,
  GloveConfig,
  InboxItem,
  Message,
  ModelAdapter,
  StoreAdapter,
  SubscriberAdapter,
  Task,
} from "glove-core";
import type { PersistSessionOptions } from "../local/local-options.js";
import type { BackoffOptions } from "../server/backoff.js";
import type { HeadersOption } from "../server/server-api.js";
import type { FrameScheduler } from "../state/frame-batcher.js";
import type { BranchActionResult, ImageInput, SlotAnswerResult } from "../types/session.js";
import type { ClientSlot, ConnectionState, GloveStats } from "../types/state.js";
import type { TimelineEntry, ToolEntry } from "../types/timeline.js";
import type { SlotRenderer, ToolView } from "../types/tool.js";
import type { ConversationSnapshot, ErrorInfo } from "../types/wire.js";

/** `useGlove`'s config: `server` selects server mode; otherwise `endpoint` or `model` (local mode). */
export interface UseGloveConfig {
  // ── Local mode: the Glove runs in this tab ──
  /** A model relay route (glove-server's `createModelRelay`), e.g. "/api/model". */
  endpoint?: string | undefined;
  /** Any glove-core ModelAdapter (instead of `endpoint`). */
  model?: ModelAdapter | undefined;
  systemPrompt?: string | undefined;
  /** The first session's store (default: a MemoryStore, or a persisted one). Create it outside render. */
  store?: StoreAdapter | undefined;
  /** The store of each session (also for newConversation / switchConversation). */
  createStore?: ((sessionId: string) => StoreAdapter | Promise<StoreAdapter>) | undefined;
  /** The local session to open (default: the last persisted one, else a new id). */
  sessionId?: string | undefined;
  /** Keep the history in localStorage so it survives a reload. */
  persistSession?: boolean | PersistSessionOptions | undefined;
  compaction?: CompactionConfig | undefined;
  subscribers?: SubscriberAdapter[] | undefined;
  /** More Glove config (permissionPolicy, maxRetries, toolConcurrency…). */
  gloveConfig?:
    Omit<Partial<GloveConfig>, "store" | "model" | "displayManager" | "systemPrompt" | "compaction_config"> | undefined;
  /** Define hooks, skills, subagents or plugins on the tab's Glove before it is built. */
  configure?: ((glove: Glove) => void) | undefined;

  // ── Server mode: attach to a glove-server conversation ──
  /** The glove-server's base URL (its basePath), e.g. "/api/glove". */
  server?: string | undefined;
  /** The agent new conversations are created for. */
  agent?: string | undefined;
  /** The conversation to attach to; without one, the first message creates it. */
  conversationId?: string | undefined;
  /** A snapshot fetched on the server for SSR: rendered at once, then the stream resumes after it. */
  initialSnapshot?: ConversationSnapshot | undefined;
  onConversationChange?: ((conversationId: string | null) => void) | undefined;
  backoff?: BackoffOptions | undefined;
  /** Failed connection attempts in a row before `connection` says "offline". Default 3. */
  offlineAfter?: number | undefined;
  staleAfterMs?: number | undefined;

  // ── Both ──
  /**
   * Tools: their `do` runs in local mode; `render` / `renderResult` draw in both. Server mode
   * needs only views (`defineToolView`), so the page carries none of the tools' server code.
   */
  tools?: ToolView[] | undefined;
  /** Extra slot renderers by name (e.g. for slots a server tool pushes, or to replace "permission_request"). */
  renderers?: Record<string, SlotRenderer> | undefined;
  /** Sent with server requests and to the model relay. */
  headers?: HeadersOption | undefined;
  credentials?: RequestCredentials | undefined;
  fetch?: typeof fetch | undefined;
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
