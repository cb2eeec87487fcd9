import type { CompactionConfig, Glove, GloveConfig, ModelAdapter, StoreAdapter, SubscriberAdapter } from "glove-core";
import type { ToolConfig } from "../types/tool.js";
import type { KeyValueStorage } from "./persisted-store.js";

/** Keep the session in Web Storage so it survives a reload. */
export interface PersistSessionOptions {
  /** Default: `localStorage` (looked up when the session starts, in an effect). */
  storage?: KeyValueStorage | undefined;
  /** Key prefix. Default "glove:". */
  prefix?: string | undefined;
}

/** Everything local mode needs: the Glove it builds in the tab and where its history lives. */
export interface LocalSessionOptions {
  model: ModelAdapter;
  systemPrompt: string;
  tools?: readonly ToolConfig[] | undefined;
  compaction?: CompactionConfig | undefined;
  subscribers?: readonly SubscriberAdapter[] | undefined;
  /** The store of the first session (default: `createStore`, a persisted store, or a MemoryStore). */
  store?: StoreAdapter | undefined;
  /** Builds the store of a session (also for `newConversation` / `switchConversation`). */
  createStore?: ((sessionId: string) => StoreAdapter | Promise<StoreAdapter>) | undefined;
  /** The session to open; default: the last persisted one, else a new id. */
  sessionId?: string | undefined;
  persistSession?: boolean | PersistSessionOptions | undefined;
  /** More of glove-core's Glove config (permissionPolicy, maxRetries, toolConcurrency…). */
  gloveConfig?:
    Omit<Partial<GloveConfig>, "store" | "model" | "displayManager" | "systemPrompt" | "compaction_config"> | undefined;
  /** Called before build: define hooks, skills, subagents, plugins on the tab's Glove. */
  configure?: ((glove: Glove) => void) | undefined;
}
