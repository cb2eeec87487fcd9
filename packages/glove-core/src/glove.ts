import type {
  AgentConfig,
  ContentPart,
  DisplayManagerAdapter,
  GloveConfig,
  GloveFoldArgs,
  GlovePlugin,
  IGloveBuilder,
  IGloveRunnable,
  Message,
  ModelAdapter,
  ModelPromptResult,
  StoreAdapter,
  SubscriberAdapter,
} from "./types/index.js";
import { AbortError, ConfigurationError, DuplicateToolError, throwIfAborted, toAbortError } from "./errors.js";
import { toolFromFoldArgs } from "./glove-tools.js";
import { CompositePlugin } from "./plugins/composite.js";
import { InboxPlugin, storeSupportsInbox } from "./plugins/inbox.js";
import { TasksPlugin, storeSupportsTasks } from "./plugins/tasks.js";
import { ToolRegistryPlugin } from "./plugins/tool-registry.js";
import { Agent } from "./runtime/agent.js";
import { Context } from "./runtime/context.js";
import { EventBus } from "./runtime/event-bus.js";
import { Executor } from "./runtime/executor.js";
import { Observer } from "./runtime/observer.js";
import { PromptMachine } from "./runtime/prompt-machine.js";
import { MemoryStore } from "./stores/memory-store.js";

/** The runtime pieces a build assembles; replaced wholesale by rebuild. */
export interface GloveParts {
  store: StoreAdapter;
  context: Context;
  promptMachine: PromptMachine;
  executor: Executor;
  observer: Observer;
  agent: Agent;
}

/**
 * The builder and the runnable agent in one object. Tools, plugins and
 * subscribers live here, so they survive build/rebuild; the runtime pieces
 * are assembled per build.
 */
export class Glove implements IGloveBuilder, IGloveRunnable {
  readonly bus = new EventBus();
  readonly plugins: CompositePlugin;
  private readonly folded = new ToolRegistryPlugin("glove:folded");
  private readonly config: GloveConfig;
  private currentModel: ModelAdapter;
  private currentDisplay: DisplayManagerAdapter;
  private basePrompt: string;
  private agentConfig: AgentConfig;
  private parts: GloveParts | undefined;
  private pendingStore: StoreAdapter | undefined;
  private queue: Promise<unknown> = Promise.resolve();
  private removeEventSink: (() => void) | undefined;

  constructor(config: GloveConfig) {
    validateConfig(config);
    this.config = config;
    this.currentModel = config.model;
    this.currentDisplay = config.displayManager;
    this.basePrompt = config.systemPrompt;
    this.pendingStore = config.store;
    this.plugins = new CompositePlugin([this.folded]);
    this.agentConfig = { name: this.name, systemPrompt: this.basePrompt };
    for (const plugin of config.plugins ?? []) this.use(plugin);
  }

  /** The agent's name as plugins see it. */
  get name(): string {
    return this.config.name ?? "main";
  }

  get displayManager(): DisplayManagerAdapter {
    return this.currentDisplay;
  }

  get model(): ModelAdapter {
    return this.currentModel;
  }

  get serverMode(): boolean {
    return this.config.serverMode ?? false;
  }

  get store(): StoreAdapter {
    return this.requireParts("store").store;
  }

  /** The assembled runtime pieces (context, executor, observer…), for hooks and tests. */
  get internals(): GloveParts {
    return this.requireParts("internals");
  }

  fold<I>(args: GloveFoldArgs<I>): this {
    const tool = toolFromFoldArgs(args, this);
    const owner = this.plugins.findTool(tool.name);
    if (owner && !(args.replace && owner.owner === this.folded)) throw new DuplicateToolError(tool.name);
    this.folded.set(tool);
    return this;
  }

  /** Installs a lifecycle plugin (RFC 0075). */
  use(plugin: GlovePlugin): this {
    const names = new Set<string>();
    for (const tool of plugin.tools?.() ?? []) {
      if (names.has(tool.name) || this.plugins.findTool(tool.name)) throw new DuplicateToolError(tool.name);
      names.add(tool.name);
    }
    this.plugins.add(plugin);
    plugin.onRegister?.(this.name, this.agentConfig);
    this.refreshAgentConfig();
    if (plugin.onEvent && !this.removeEventSink) {
      this.removeEventSink = this.bus.addSink((event) =>
        this.plugins.onEvent(this.name, this.parts?.store.identifier ?? "", event),
      );
    }
    return this;
  }

  addSubscriber(subscriber: SubscriberAdapter): this {
    this.bus.add(subscriber);
    return this;
  }

  removeSubscriber(subscriber: SubscriberAdapter): void {
    this.bus.remove(subscriber);
  }

  setDisplayManager(dm: DisplayManagerAdapter): this {
    this.currentDisplay = dm;
    return this;
  }

  setModel(model: ModelAdapter): void {
    this.currentModel = model;
    this.parts?.promptMachine.setModel(model);
  }

  setSystemPrompt(prompt: string): void {
    this.basePrompt = prompt;
    this.refreshAgentConfig();
  }

  getSystemPrompt(): string {
    return this.basePrompt;
  }

  build(store?: StoreAdapter): this {
    return this.assemble(store);
  }

  rebuild(store?: StoreAdapter): this {
    return this.assemble(store);
  }

  processRequest(request: string | ContentPart[], signal?: AbortSignal): Promise<ModelPromptResult | Message> {
    try {
      this.requireParts("processRequest");
    } catch (error) {
      return Promise.reject(error);
    }
    // One request at a time per Glove (decision 11): later calls wait their turn.
    const run = this.queue.then(() => this.runRequest(request, signal));
    this.queue = run.catch(() => undefined);
    return run;
  }

  private async runRequest(request: string | ContentPart[], signal?: AbortSignal): Promise<ModelPromptResult | Message> {
    throwIfAborted(signal);
    const parts = this.requireParts("processRequest");
    const input = toUserInput(request);
    const preprocessed = await this.plugins.preprocess(this.name, input.text);
    const contribution = await this.plugins.beforeRequest({ agent: this.name, store: parts.store, signal });
    if (contribution.messages?.length) {
      await parts.context.appendMessages(contribution.messages);
      await contribution.onPersisted?.();
    }
    parts.promptMachine.setSystemPrompt(this.composeSystemPrompt());
    const message: Message = { sender: "user", text: preprocessed ?? input.text };
    if (preprocessed !== undefined && preprocessed !== input.text) message.pre_modified_text = input.text;
    if (input.content.length) message.content = input.content;
    try {
      return await parts.agent.ask(message, undefined, signal, { systemPromptSuffix: contribution.reminder });
    } catch (error) {
      if (signal?.aborted && !AbortError.isInstance(error)) throw toAbortError(signal.reason);
      throw error;
    }
  }

  private assemble(store?: StoreAdapter): this {
    const chosen = store ?? this.pendingStore ?? this.parts?.store ?? new MemoryStore(`session-${crypto.randomUUID()}`);
    this.pendingStore = undefined;
    const { config, bus } = this;
    const context = new Context(chosen);
    const promptMachine = new PromptMachine(
      this.currentModel,
      context,
      this.composeSystemPrompt(),
      config.enableToolResultSummary ?? false,
      bus,
    );
    const executor = new Executor(config.maxRetries ?? 0, chosen, {
      bus,
      plugins: this.plugins,
      concurrency: config.toolConcurrency,
      displayManager: () => this.currentDisplay,
      serverMode: this.serverMode,
      permissionPolicy: config.permissionPolicy,
      agent: this.name,
    });
    const compaction = config.compaction_config;
    const observer = new Observer(
      chosen,
      context,
      promptMachine,
      compaction.compaction_instructions,
      compaction.max_turns,
      compaction.compaction_context_limit ?? 100_000,
      90,
      bus,
    );
    if (config.maxTurnsPerRequest !== undefined) observer.MAX_TURNS = config.maxTurnsPerRequest;
    const agent = new Agent(chosen, executor, context, observer, promptMachine);
    this.parts = { store: chosen, context, promptMachine, executor, observer, agent };
    this.installBuiltIn(storeSupportsTasks(chosen) ? new TasksPlugin(context) : undefined, "glove:tasks");
    this.installBuiltIn(storeSupportsInbox(chosen) ? new InboxPlugin(chosen) : undefined, "glove:inbox");
    this.refreshAgentConfig();
    return this;
  }

  /** Built-in tools follow the store's capabilities; a user tool of the same name wins. */
  private installBuiltIn(plugin: GlovePlugin | undefined, name: string): void {
    this.plugins.removeByName(name);
    if (!plugin) return;
    if ((plugin.tools?.() ?? []).some((t) => this.plugins.findTool(t.name))) return;
    this.plugins.add(plugin);
  }

  private refreshAgentConfig(): void {
    this.agentConfig = this.plugins.onBuild({ name: this.name, systemPrompt: this.basePrompt });
    this.parts?.promptMachine.setSystemPrompt(this.composeSystemPrompt());
  }

  private composeSystemPrompt(): string {
    const fragments = this.plugins.systemPrompt();
    return fragments ? `${this.agentConfig.systemPrompt}\n\n${fragments}` : this.agentConfig.systemPrompt;
  }

  private requireParts(member: string): GloveParts {
    if (!this.parts) {
      throw new ConfigurationError(`Glove.${member} is only available after build(). Call .build() first.`);
    }
    return this.parts;
  }
}

function validateConfig(config: GloveConfig): void {
  const missing: string[] = [];
  if (!config) throw new ConfigurationError("new Glove(config) needs a config object.");
  if (!config.model) missing.push("model (a ModelAdapter, e.g. createAdapter({ provider }))");
  if (!config.displayManager) missing.push("displayManager (e.g. new Displaymanager())");
  if (typeof config.systemPrompt !== "string") missing.push("systemPrompt (a string)");
  if (typeof config.compaction_config?.compaction_instructions !== "string") {
    missing.push("compaction_config.compaction_instructions (a string)");
  }
  if (missing.length) throw new ConfigurationError(`new Glove() is missing: ${missing.join("; ")}.`);
}

function toUserInput(request: string | ContentPart[]): { text: string; content: ContentPart[] } {
  if (typeof request === "string") return { text: request, content: [] };
  if (!Array.isArray(request)) {
    throw new ConfigurationError("processRequest() takes a string or an array of ContentParts.");
  }
  const text = request
    .filter((p) => p.type === "text" && typeof p.text === "string")
    .map((p) => p.text)
    .join("\n");
  return { text, content: request.filter((p) => p.type !== "text") };
}
