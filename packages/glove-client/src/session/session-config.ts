import type { CompactionConfig, Glove, GloveConfig, ModelAdapter, StoreAdapter, SubscriberAdapter } from "glove-core";
import type { PersistSessionOptions } from "../local/local-options.js";
import type { BackoffOptions } from "../server/backoff.js";
import type { HeadersOption } from "../server/server-api.js";
import type { ToolView } from "../types/tool.js";
import type { ConversationSnapshot } from "../types/wire.js";

/**
 * What a session needs, in either mode: `server` selects server mode; otherwise `endpoint`,
 * `model` or `createModel` (local mode: the Glove runs in this tab). `Rendered` is what the UI's
 * tool renderers return (glove-react: a `ReactNode`).
 */
export interface GloveSessionConfig<Rendered = unknown> {
  // ── Local mode: the Glove runs in this tab ──
  /** A model relay route (glove-server's `createModelRelay`), e.g. "/api/model". */
  endpoint?: string | undefined;
  /** Any glove-core ModelAdapter (instead of `endpoint`). */
  model?: ModelAdapter | undefined;
  /** Builds the model of each local-mode session (instead of `model` / `endpoint`). */
  createModel?: (() => ModelAdapter) | undefined;
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
  tools?: ToolView<Rendered>[] | undefined;
  /** Sent with server requests and to the model relay. */
  headers?: HeadersOption | undefined;
  credentials?: RequestCredentials | undefined;
  fetch?: typeof fetch | undefined;
}
