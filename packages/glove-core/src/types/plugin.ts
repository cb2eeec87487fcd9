import type { SubscriberEvent } from "./events.js";
import type { Message, ToolCall, ToolResultData } from "./message.js";
import type { StoreAdapter } from "./store.js";
import type { HandOverFunction, Tool } from "./tool.js";

/** What plugins know about an agent (RFC 0075's AgentConfig). */
export interface AgentConfig {
  name: string;
  systemPrompt: string;
  /** When set, the agent may only call these tools (plus tools a plugin scopes in). */
  tools?: string[];
  /** One-line description, e.g. for routing between agents. */
  description?: string;
  /** When set, the agent may only use these skills. */
  skills?: string[];
}

/** A tool call routed to the plugin that owns the tool. */
export interface ToolDispatch {
  call: ToolCall;
  input: unknown;
  agent: string;
  conversationId: string;
  signal?: AbortSignal;
  handOver?: HandOverFunction;
}

/** The request about to run, as `beforeRequest` sees it. */
export interface RequestContext {
  agent: string;
  store: StoreAdapter;
  signal?: AbortSignal;
}

/** What `beforeRequest` may add to a request. */
export interface RequestContribution {
  /** Persisted before the user's message (e.g. resolved inbox answers). */
  messages?: Message[];
  /** Shown to the model for this request only, never persisted (e.g. reminders). */
  reminder?: string;
  /** Called once `messages` are safely persisted (e.g. to mark inbox items consumed). */
  onPersisted?: () => Promise<void>;
}

/**
 * A subsystem plugged into the runtime (RFC 0075). Every member is optional;
 * an empty object is a valid no-op plugin.
 */
export interface GlovePlugin {
  readonly name: string;
  /** Tools this plugin owns. Called whenever the tool set is assembled, so it may change over time. */
  tools?(): readonly Tool<unknown>[];
  /** A standing fragment appended to the agent's system prompt. */
  systemPrompt?(): string | undefined;
  /** Called when an agent is built; may return a modified config. */
  onBuild?(config: AgentConfig): AgentConfig;
  onRegister?(agent: string, config: AgentConfig): void;
  onUnregister?(agent: string): void;
  /** Every event of every conversation of the agent. Errors are isolated. */
  onEvent?(agent: string, conversationId: string, event: SubscriberEvent): void | Promise<void>;
  /** Transforms user text before it enters the conversation; undefined passes it through. */
  preprocess?(agent: string, text: string): string | undefined | Promise<string | undefined>;
  /**
   * The subset of this plugin's tools the agent may call, plus an optional scope
   * line for the system prompt. Default: the plugin's tools, narrowed to
   * `config.tools` when the agent restricts its tools.
   */
  scopedTools?(config: AgentConfig): { tools: string[]; scopeLine?: string };
  /** Resources the agent can use (e.g. available skills), listed in the system prompt. */
  resourceHints?(config: AgentConfig): string | undefined;
  /**
   * Runs a call to a tool this plugin owns. Return undefined when the name is not
   * yours; the composite tries the next plugin. When absent, the tool's own `run` is used.
   */
  dispatch?(name: string, call: ToolDispatch): Promise<ToolResultData> | undefined;
  /** Glove-specific: contributes messages or a transient reminder before each request. */
  beforeRequest?(ctx: RequestContext): Promise<RequestContribution | void>;
}
