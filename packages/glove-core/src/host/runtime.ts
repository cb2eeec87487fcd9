import type {
  AgentConfig,
  BuiltInOptions,
  CompactionConfig,
  ContentPart,
  DisplayManagerAdapter,
  GlovePlugin,
  InboxOptions,
  ModelAdapter,
  PermissionPolicy,
  PlainRequestResult,
  StoreAdapter,
} from "../types/index.js";
import { ConfigurationError } from "../errors.js";
import { Glove } from "../glove.js";
import { CompositePlugin } from "../plugins/composite.js";
import { MemoryStore } from "../stores/memory-store.js";

/** How an agent is hosted by a Runtime. */
export interface RuntimeAgentConfig {
  systemPrompt: string;
  model: ModelAdapter;
  description?: string;
  /** Restrict the tools this agent may call; undefined: every tool. */
  tools?: string[];
  /** Restrict the skills this agent may use; undefined: every skill. */
  skills?: string[];
  compaction_config?: CompactionConfig;
  /** A display manager per conversation; none (serverMode) by default. */
  displayManager?: () => DisplayManagerAdapter;
  permissionPolicy?: PermissionPolicy;
  maxRetries?: number;
  /** Turn off what Glove adds by itself (see `GloveConfig.builtIns`). */
  builtIns?: BuiltInOptions;
  /** How the inbox delivers answers (see `GloveConfig.inbox`). */
  inbox?: InboxOptions;
  /** Agent-specific setup on every conversation's Glove: fold tools, define skills… */
  setup?: (glove: Glove) => void;
}

/** Settings shared by every agent a Runtime hosts: plugins, stores and memory limits. */
export interface RuntimeOptions {
  /** Plugins shared by every agent (skills, memory, MCP…). */
  plugins?: GlovePlugin[];
  /** The store of a conversation. Default: a MemoryStore per conversation. */
  storeFactory?: (agent: string, conversationId: string) => StoreAdapter | Promise<StoreAdapter>;
  /** Add the environment block (date, platform) to every agent's prompt. Default true. */
  environment?: boolean;
  /**
   * Keep at most this many conversations' Gloves in memory: beyond it the least recently used
   * idle ones are forgotten and rebuilt from their store when next used. Set it with a persistent
   * `storeFactory` (the default MemoryStore lives only as long as its Glove). Default: no limit.
   */
  maxOpenConversations?: number;
}

interface RegisteredAgent {
  name: string;
  config: RuntimeAgentConfig;
  agentConfig: AgentConfig;
  conversations: Map<string, Promise<Glove>>;
}

/**
 * Hosts named agents over one composite of plugins (RFC 0075), for embedded
 * use or behind a server. Plugin state for an agent is in place before the agent
 * is visible and dropped before it disappears.
 */
export class Runtime {
  readonly plugins: CompositePlugin;
  private readonly agents = new Map<string, RegisteredAgent>();
  /** Open conversations, least recently used first (Map order), for `maxOpenConversations`. */
  private readonly recent = new Map<
    string,
    { agent: RegisteredAgent; conversationId: string; glove?: Glove; ownsStore?: boolean }
  >();

  constructor(private readonly options: RuntimeOptions = {}) {
    const limit = options.maxOpenConversations;
    if (limit !== undefined && !(Number.isInteger(limit) && limit > 0)) {
      throw new ConfigurationError(
        `Runtime: maxOpenConversations must be a positive whole number, got ${JSON.stringify(limit)}.`,
      );
    }
    this.plugins = new CompositePlugin(options.plugins ?? []);
  }

  register(name: string, config: RuntimeAgentConfig): this {
    if (this.agents.has(name)) {
      throw new ConfigurationError(`An agent named "${name}" is already registered; unregister it first.`);
    }
    const agentConfig = this.plugins.onBuild({
      name,
      systemPrompt: config.systemPrompt,
      tools: config.tools,
      skills: config.skills,
      description: config.description,
    });
    this.plugins.onRegister(name, agentConfig);
    this.agents.set(name, { name, config, agentConfig, conversations: new Map() });
    return this;
  }

  /** Removes the agent; its plugin state is dropped first. Returns false when unknown. */
  unregister(name: string): boolean {
    if (!this.agents.has(name)) return false;
    this.plugins.onUnregister(name);
    this.agents.delete(name);
    for (const [key, used] of this.recent) if (used.agent.name === name) this.recent.delete(key);
    return true;
  }

  /** The registered agent's config, or undefined. */
  agent(name: string): AgentConfig | undefined {
    return this.agents.get(name)?.agentConfig;
  }

  agentNames(): string[] {
    return [...this.agents.keys()];
  }

  /**
   * The Glove of one conversation, created on first use with `options.store`, else a store from
   * the factory. A host that evicts idle conversations calls `closeConversation` to forget one.
   */
  conversation(agent: string, conversationId: string, options: { store?: StoreAdapter } = {}): Promise<Glove> {
    const entry = this.agents.get(agent);
    if (!entry) {
      return Promise.reject(
        new ConfigurationError(
          `No agent named "${agent}". Registered agents: ${this.agentNames().join(", ") || "(none)"}.`,
        ),
      );
    }
    const key = `${agent}\u0000${conversationId}`;
    let pending = entry.conversations.get(conversationId);
    const used = this.recent.get(key) ?? { agent: entry, conversationId };
    this.recent.delete(key);
    this.recent.set(key, used);
    if (!pending) {
      used.ownsStore = options.store === undefined;
      pending = this.openConversation(entry, conversationId, options.store);
      entry.conversations.set(conversationId, pending);
      pending.then(
        (glove) => {
          used.glove = glove;
          this.evictBeyondLimit();
        },
        () => {
          entry.conversations.delete(conversationId);
          this.recent.delete(key);
        },
      );
    }
    return pending;
  }

  /** Forgets every open conversation (their stores keep everything). */
  close(): void {
    for (const entry of this.agents.values()) entry.conversations.clear();
    this.recent.clear();
  }

  private evictBeyondLimit(): void {
    const limit = this.options.maxOpenConversations;
    if (limit === undefined || this.recent.size <= limit) return;
    let excess = this.recent.size - limit;
    for (const [key, used] of this.recent) {
      if (excess <= 0) break;
      if (!used.glove || used.glove.busy) continue;
      used.agent.conversations.delete(used.conversationId);
      this.recent.delete(key);
      // A store the factory made for this conversation is the Runtime's to close (connections, files).
      if (used.ownsStore)
        void Promise.resolve((used.glove.store as { close?: () => unknown }).close?.()).catch(() => undefined);
      excess--;
    }
  }

  /**
   * Forgets a conversation's Glove so a long-running host keeps memory bounded; the next
   * `conversation` call rebuilds it from its store. Returns false when it was not open.
   */
  closeConversation(agent: string, conversationId: string): boolean {
    this.recent.delete(`${agent}\u0000${conversationId}`);
    return this.agents.get(agent)?.conversations.delete(conversationId) ?? false;
  }

  /** How many conversations are open (across agents). */
  get openConversations(): number {
    let count = 0;
    for (const entry of this.agents.values()) count += entry.conversations.size;
    return count;
  }

  async processRequest(
    agent: string,
    conversationId: string,
    request: string | ContentPart[],
    signal?: AbortSignal,
  ): Promise<PlainRequestResult> {
    return (await this.conversation(agent, conversationId)).processRequest(request, signal);
  }

  private async openConversation(entry: RegisteredAgent, conversationId: string, given?: StoreAdapter): Promise<Glove> {
    const store =
      given ?? (await this.options.storeFactory?.(entry.name, conversationId)) ?? new MemoryStore(conversationId);
    const { config } = entry;
    const glove = new Glove({
      name: entry.name,
      model: config.model,
      // The raw prompt: the Glove runs the plugins' onBuild itself.
      systemPrompt: config.systemPrompt,
      displayManager: config.displayManager?.(),
      serverMode: !config.displayManager,
      compaction_config: config.compaction_config,
      tools: config.tools,
      skills: config.skills,
      environment: this.options.environment ?? true,
      permissionPolicy: config.permissionPolicy,
      maxRetries: config.maxRetries,
      builtIns: config.builtIns,
      inbox: config.inbox,
    });
    // The runtime owns the plugins' registration lifecycle; the Glove only uses them.
    glove.attachHostPlugin(this.plugins);
    config.setup?.(glove);
    return glove.build(store);
  }
}
