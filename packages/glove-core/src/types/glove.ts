import type { DisplayManagerAdapter } from "./display.js";
import type { ModelAdapter } from "./model.js";
import type { GlovePlugin } from "./plugin.js";
import type { PermissionStatus, StoreAdapter } from "./store.js";

/** When the conversation is summarised to stay within the model's context, and how. */
export interface CompactionConfig {
  /** Instructions given to the model when it summarises the conversation. Default `DEFAULT_COMPACTION_INSTRUCTIONS`. */
  compaction_instructions?: string | undefined;
  /** Session turns since the last compaction after which compaction runs. */
  max_turns?: number | undefined;
  /** Context size (last call's input + output tokens) at which compaction runs. Default 100 000. */
  compaction_context_limit?: number | undefined;
}

/**
 * Decides permission for a `requiresPermission` tool when the store has no
 * answer yet. Returning "unset" falls through to asking the user (or denial in serverMode).
 * In serverMode it is also asked for bridged MCP tools, which otherwise run without asking.
 */
export type PermissionPolicy = (toolName: string, input: unknown) => PermissionStatus | Promise<PermissionStatus>;

/** Everything a Glove is built with: model, store, display, prompt and limits. */
export interface GloveConfig {
  /** Conversation persistence; a fresh MemoryStore when omitted. */
  store?: StoreAdapter | undefined;
  model: ModelAdapter;
  /** Where tools show things and wait for answers; a fresh `Displaymanager` when omitted. */
  displayManager?: DisplayManagerAdapter | undefined;
  systemPrompt: string;
  /** No UI is present: permission prompts cannot be shown. Default false. */
  serverMode?: boolean | undefined;
  /** Retries for tools that throw. Default 0: a tool with side effects runs once. */
  maxRetries?: number | undefined;
  /** When and how to summarise the conversation; defaults: see `CompactionConfig`. */
  compaction_config?: CompactionConfig | undefined;
  /** Swap older tool results' data for their summaries before each model call. Default false. */
  enableToolResultSummary?: boolean | undefined;
  /** How many tool calls of one model turn run at once. Default 8; 1 runs them in order. */
  toolConcurrency?: number | undefined;
  /** Permission decision for tools whose permission is unset in the store. */
  permissionPolicy?: PermissionPolicy | undefined;
  /**
   * Refuse a tool whose permission prompt is unanswered after this many ms (the slot is taken
   * down). Default: wait, since an answer may come late, even from another process.
   */
  permissionTimeoutMs?: number | undefined;
  /** Model turns allowed in one request before the loop stops politely. Default 120. */
  maxTurnsPerRequest?: number | undefined;
  /** Name of this agent as plugins see it. Default "main". */
  name?: string | undefined;
  /** Plugins to install at construction (same as calling `use` for each). */
  plugins?: GlovePlugin[] | undefined;
  /** Restrict the tools this agent may call (RFC 0075 scope). Undefined: every tool. */
  tools?: string[] | undefined;
  /** Restrict the skills this agent may use. Undefined: every skill. */
  skills?: string[] | undefined;
  /** Add an environment block (date, platform) to the system prompt. Default false. */
  environment?: boolean | undefined;
  /** Turn off what Glove adds by itself; everything is on by default. */
  builtIns?: BuiltInOptions | undefined;
  /** How the built-in inbox delivers answers (docs/concepts/inbox.md). */
  inbox?: InboxOptions | undefined;
}

/** How the built-in inbox delivers resolved answers. */
export interface InboxOptions {
  /**
   * An answer may start a turn of its own (`deliverInbox`, which glove-server calls when an item
   * is resolved) instead of waiting for the next message. Every answer is then claimed in the
   * store before it is shown (resolved → consumed, the first claim wins), so it reaches the model
   * exactly once however many processes deliver; the store must implement `consumeInboxItem`.
   * Default false: answers wait for the next request.
   */
  wake?: boolean | undefined;
}

/**
 * What Glove adds to an agent without being asked (docs/concepts/built-ins.md); `false` turns
 * one off. Tools of your own with a built-in's name replace it instead.
 */
export interface BuiltInOptions {
  /** `glove_update_tasks`, offered when the store keeps tasks. */
  tasks?: boolean | undefined;
  /** `glove_post_to_inbox`, the delivery of resolved answers and the reminder of pending items, when the store keeps an inbox. */
  inbox?: boolean | undefined;
  /** The "Skills available in this conversation" list appended to the system prompt. */
  skillList?: boolean | undefined;
}
