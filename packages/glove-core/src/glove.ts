import type {
  AgentConfig,
  AgentControls,
  ContentPart,
  DefineMentionArgs,
  DefineSkillArgs,
  DefineSubAgentArgs,
  DeliverInboxOptions,
  DisplayManagerAdapter,
  GloveConfig,
  GloveFoldArgs,
  GlovePlugin,
  HookHandler,
  IGloveBuilder,
  IGloveRunnable,
  Message,
  ModelAdapter,
  ModelAnswer,
  ModelPromptResult,
  PendingQuestion,
  PlainRequestResult,
  StoreAdapter,
  StoredAnswer,
  ModelCallObserver,
  SubscriberAdapter,
} from "./types/index.js";
import { AbortError, ConfigurationError, DuplicateToolError, throwIfAborted, toAbortError } from "./errors.js";
import { Displaymanager } from "./display/display-manager.js";
import { runDirectives } from "./extensions/directives.js";
import { SkillRegistry } from "./extensions/skill-registry.js";
import { SkillsPlugin } from "./extensions/skills-plugin.js";
import { SubagentsPlugin } from "./extensions/subagents-plugin.js";
import { assembleParts, type GloveParts } from "./glove-parts.js";
import type { AskOptions } from "./runtime/agent.js";
import { requireExtensionName, toUserInput, validateConfig } from "./glove-input.js";
import { toolFromFoldArgs } from "./glove-tools.js";
import { CompositePlugin } from "./plugins/composite.js";
import { InboxPlugin, storeSupportsInbox } from "./plugins/inbox.js";
import { deliverInbox } from "./plugins/inbox-delivery.js";
import { TasksPlugin, storeSupportsTasks } from "./plugins/tasks.js";
import { ToolRegistryPlugin } from "./plugins/tool-registry.js";
import { EventBus } from "./runtime/event-bus.js";
import { GloveStream } from "./glove-stream.js";
import { readRequestOptions, type RequestSettings } from "./request-options.js";
import { runStructured, structuredShortCircuit } from "./structured-output/structured-request.js";
import type {
  OutputSchema,
  ProcessRequestOptions,
  RequestResult,
  StructuredRequestResult,
} from "./structured-output/types.js";
import { usageSince, withUsage } from "./request-result.js";
import { resumeTurn } from "./runtime/resume-turn.js";
import { storeKeepsWaits } from "./runtime/call-waits.js";
import {
  answerAndResume,
  answerShown,
  callsToRerun,
  pendingQuestions,
  SlotAnswerError,
} from "./runtime/stored-questions.js";
import { MemoryStore } from "./stores/memory-store.js";
import { GloveBranches } from "./glove-branches.js";
import { composeSystemPrompt } from "./system-prompt.js";
import { SUBAGENT_DISPATCH_TOOL_NAME } from "./constants.js";

export type { GloveParts } from "./glove-parts.js";

type RequestOutcome = PlainRequestResult | StructuredRequestResult<unknown>;

/**
 * The builder and the runnable agent in one object. Tools, extensions, plugins
 * and subscribers live here, so they survive build/rebuild; the runtime pieces
 * are assembled per build.
 */
export class Glove implements IGloveBuilder, IGloveRunnable {
  readonly bus = new EventBus();
  readonly plugins: CompositePlugin;
  private readonly folded = new ToolRegistryPlugin("glove:folded");
  private readonly hooks = new Map<string, HookHandler>();
  private readonly skills = new SkillRegistry();
  private readonly subagents: SubagentsPlugin;
  private readonly config: GloveConfig;
  private currentModel: ModelAdapter;
  private currentDisplay: DisplayManagerAdapter;
  private basePrompt: string;
  private agentConfig: AgentConfig;
  private parts: GloveParts | undefined;
  private pendingStore: StoreAdapter | undefined;
  private queue: Promise<unknown> = Promise.resolve();
  private pendingRequests = 0;
  private removeEventSink: (() => void) | undefined;
  private inbox: InboxPlugin | undefined;
  private readonly branching = new GloveBranches({
    parts: (name) => this.requireParts(name),
    busy: () => this.busy,
    enqueue: (work) => this.enqueue(work),
    enqueueTurn: (name, work) => this.enqueueTurn(name, work),
    request: (text, signal) => this.runStreamed(text, readRequestOptions(signal)) as Promise<PlainRequestResult>,
  });

  constructor(config: GloveConfig) {
    validateConfig(config);
    this.config = config;
    this.currentModel = config.model;
    this.currentDisplay = config.displayManager ?? new Displaymanager();
    this.basePrompt = config.systemPrompt;
    this.pendingStore = config.store;
    const controls = () => this.controls;
    this.subagents = new SubagentsPlugin({ controls, bus: this.bus });
    this.plugins = new CompositePlugin([
      this.folded,
      new SkillsPlugin(this.skills, controls, this.bus, config.builtIns?.skillList !== false),
      this.subagents,
    ]);
    this.agentConfig = this.baseAgentConfig();
    this.skills.allowed = config.skills ? new Set(config.skills) : undefined;
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

  /** True while a request runs or waits its turn (hosts only evict idle agents). */
  get busy(): boolean {
    return this.pendingRequests > 0;
  }

  get store(): StoreAdapter {
    return this.requireParts("store").store;
  }

  /** The store once built, else undefined: asks without the ConfigurationError (and its stack trace) of `store`. */
  get builtStore(): StoreAdapter | undefined {
    return this.parts?.store;
  }

  /** The assembled runtime pieces (context, executor, observer…), for hooks and tests. */
  get internals(): GloveParts {
    return this.requireParts("internals");
  }

  /** What hooks, skills and mentions receive. */
  get controls(): AgentControls {
    const parts = this.requireParts("controls");
    return {
      context: parts.context,
      observer: parts.observer,
      promptMachine: parts.promptMachine,
      executor: parts.executor,
      glove: this,
      forceCompaction: () => parts.observer.runCompactionNow(),
    };
  }

  fold<I>(args: GloveFoldArgs<I>): this {
    const tool = toolFromFoldArgs(args, this);
    const owner = this.plugins.findTool(tool.name);
    if (owner && !(args.replace && owner.owner === this.folded)) throw new DuplicateToolError(tool.name);
    this.folded.set(tool);
    return this;
  }

  defineHook(name: string, handler: HookHandler): this {
    if (typeof handler !== "function") throw new ConfigurationError(`defineHook("${name}") needs a handler function.`);
    this.hooks.set(requireExtensionName(name, "defineHook"), handler);
    return this;
  }

  defineSkill(args: DefineSkillArgs): this {
    requireExtensionName(args?.name, "defineSkill");
    if (typeof args.handler !== "function")
      throw new ConfigurationError(`defineSkill("${args.name}") needs a handler function.`);
    this.skills.define(args);
    this.refreshAgentConfig();
    return this;
  }

  defineMention(args: DefineMentionArgs): this {
    requireExtensionName(args?.name, "defineMention");
    if (typeof args.handler !== "function")
      throw new ConfigurationError(`defineMention("${args.name}") needs a handler function.`);
    this.requireSubagentToolFree();
    this.subagents.defineMention(args);
    return this;
  }

  defineSubAgent(args: DefineSubAgentArgs): this {
    requireExtensionName(args?.name, "defineSubAgent");
    if (typeof args.factory !== "function")
      throw new ConfigurationError(`defineSubAgent("${args.name}") needs a factory function.`);
    this.requireSubagentToolFree();
    this.subagents.defineSubAgent(args);
    return this;
  }

  /** Subagents are reached through one tool; a folded tool of that name would shadow it. */
  private requireSubagentToolFree(): void {
    const owner = this.plugins.findTool(SUBAGENT_DISPATCH_TOOL_NAME)?.owner;
    if (owner && owner !== this.subagents) throw new DuplicateToolError(SUBAGENT_DISPATCH_TOOL_NAME);
  }

  /** Installs a lifecycle plugin (RFC 0075). */
  use(plugin: GlovePlugin): this {
    this.install(plugin);
    plugin.onRegister?.(this.name, this.agentConfig);
    this.refreshAgentConfig();
    return this;
  }

  /**
   * Installs a plugin the host (e.g. a Runtime) manages: its onRegister /
   * onUnregister are the host's to call, not this Glove's.
   */
  attachHostPlugin(plugin: GlovePlugin): this {
    this.install(plugin);
    this.refreshAgentConfig();
    return this;
  }

  addSubscriber(subscriber: SubscriberAdapter): this {
    this.bus.add(subscriber);
    return this;
  }

  removeSubscriber(subscriber: SubscriberAdapter): void {
    this.bus.remove(subscriber);
  }

  /**
   * Sees every model call this agent makes — its own, its compactions' and its subagents' — as
   * the request Glove built, the wire request the adapter sent (secrets redacted) and the answer
   * with its timing. Apart from the subscribers: a client stream never carries requests. Returns
   * the removal.
   */
  observeModelCalls(observer: ModelCallObserver): () => void {
    return this.bus.observeModelCalls(observer);
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

  /**
   * Runs one request. The second argument is an AbortSignal or `{ signal?, output? }`; with an
   * `output` zod schema the result carries the parsed answer as `output` (typed from the schema).
   */
  processRequest<S extends OutputSchema | undefined = undefined>(
    request: string | ContentPart[],
    options?: AbortSignal | ProcessRequestOptions<S>,
  ): Promise<RequestResult<S>> {
    let settings: RequestSettings;
    try {
      this.requireParts("processRequest");
      settings = readRequestOptions(options);
    } catch (error) {
      return Promise.reject(error);
    }
    return this.enqueue(() => this.runStreamed(request, settings)) as Promise<RequestResult<S>>;
  }

  /** One request or turn at a time per Glove (decision 11): later calls wait their turn. */
  private enqueue<T>(work: () => Promise<T>): Promise<T> {
    this.pendingRequests++;
    const run = this.queue.then(work).finally(() => this.pendingRequests--);
    this.queue = run.catch(() => undefined);
    return run;
  }

  /** A queued turn without a user message (resumed or answered): usage counted, system prompt current. */
  private enqueueTurn(name: string, work: (parts: GloveParts) => Promise<ModelPromptResult>): Promise<ModelAnswer> {
    return this.enqueue(async () => {
      const parts = this.requireParts(name);
      const used = usageSince(() => parts.promptMachine.usage);
      parts.promptMachine.setSystemPrompt(this.composeSystemPrompt());
      return withUsage(await work(parts), used());
    });
  }

  /** Runs a request like `processRequest` and yields its events as they happen (see GloveStream). */
  stream<S extends OutputSchema | undefined = undefined>(
    request: string | ContentPart[],
    options?: AbortSignal | ProcessRequestOptions<S>,
  ): GloveStream<RequestResult<S>> {
    const given = options && "aborted" in options ? { signal: options } : (options ?? {});
    return new GloveStream(given, (own) => this.processRequest(request, own as ProcessRequestOptions<S>));
  }

  /** A stream's sink listens only while its own request runs, and gets every event before the result settles. */
  private async runStreamed(request: string | ContentPart[], settings: RequestSettings): Promise<RequestOutcome> {
    const detach = settings.sink ? this.bus.addSink(settings.sink) : undefined;
    try {
      return await this.runRequest(request, settings);
    } finally {
      if (detach) {
        await this.bus.settled();
        detach();
      }
    }
  }

  /** Continues the stored current turn without a new message (see `resumeTurn`); queued like requests. */
  continueTurn(signal?: AbortSignal): Promise<ModelAnswer> {
    try {
      this.requireParts("continueTurn");
    } catch (error) {
      return Promise.reject(error);
    }
    return this.enqueueTurn("continueTurn", async (parts) => {
      // Calls whose stored questions were all answered run again: the answers are not lost.
      const store = parts.store;
      const rerun = storeKeepsWaits(store)
        ? await callsToRerun(parts.agent.executor.tools, store, await parts.context.modelView(), { answeredOnly: true })
        : undefined;
      return resumeTurn(parts.agent, signal, undefined, rerun);
    });
  }

  /**
   * The questions stored for a person that still wait (durable human-in-the-loop): with a store
   * that keeps them, also those asked by a process that has since gone away. Empty otherwise.
   */
  async pendingSlots(): Promise<PendingQuestion[]> {
    const parts = this.requireParts("pendingSlots");
    if (!storeKeepsWaits(parts.store)) return [];
    return pendingQuestions(parts.store, await parts.context.modelView());
  }

  /**
   * Answers a question by its slot id, from anywhere: a webhook, a CLI, another process over the
   * same store. A question shown by this Glove is answered as its UI would; a stored one whose
   * process went away is recorded (the first answer wins) and its turn resumes here — the call runs
   * again with the same input and id, meets the recorded answers, and the loop goes on; the
   * promise then settles with the turn's result. Refusals are `SlotAnswerError`s (unknown,
   * already answered, invalid: the question keeps waiting).
   */
  resolveSlot(slotId: string, value: unknown, signal?: AbortSignal): Promise<ModelAnswer | undefined> {
    return this.answerSlot(slotId, { resolve: value }, signal);
  }

  /** Refuses a question (the tool's wait fails with `DisplaySlotRejectedError`), like `resolveSlot` otherwise. */
  rejectSlot(slotId: string, reason: unknown, signal?: AbortSignal): Promise<ModelAnswer | undefined> {
    return this.answerSlot(slotId, { reject: reason }, signal);
  }

  private async answerSlot(
    slotId: string,
    answer: StoredAnswer,
    signal?: AbortSignal,
  ): Promise<ModelAnswer | undefined> {
    const parts = this.requireParts("resolveSlot");
    if (answerShown(this.currentDisplay, slotId, answer)) return undefined;
    const store = parts.store;
    if (!storeKeepsWaits(store)) {
      throw new SlotAnswerError(
        slotId,
        "unknown_slot",
        `No question "${slotId}" is shown by this Glove, and its store keeps no questions (it has no addWait/settleWait/getWaits).`,
      );
    }
    return this.enqueueTurn("resolveSlot", (current) => answerAndResume(current.agent, store, slotId, answer, signal));
  }

  /** Regenerate, edit and switch branches (decision 0025); documented on IGloveRunnable. */
  readonly regenerate = this.branching.regenerate;
  readonly editMessage = this.branching.editMessage;
  readonly branches = this.branching.branches;
  readonly switchBranch = this.branching.switchBranch;

  /** True when resolved inbox answers may start a turn: `inbox: { wake: true }` and a store with an inbox. */
  get wakesOnInbox(): boolean {
    return this.inbox?.claims === true;
  }

  /**
   * Runs a turn, without a user message, that delivers the inbox answers resolved so far
   * (`inbox: { wake: true }`); queued like requests. Each answer is claimed in the store first
   * (resolved → consumed, the first claim wins), so however many processes call it, one delivers
   * it. Resolves undefined, having run nothing, when there is nothing to claim or a stored
   * question still waits for a person (that turn comes first).
   */
  deliverInbox(options: DeliverInboxOptions = {}): Promise<ModelAnswer | undefined> {
    if (!this.parts || !this.inbox?.claims) {
      return Promise.reject(
        new ConfigurationError(
          "Glove.deliverInbox needs a built Glove with inbox: { wake: true } and a store with an inbox.",
        ),
      );
    }
    return this.enqueue(() => {
      const waitingForPeople = async () => (await this.pendingSlots()).length > 0;
      const context = {
        parts: this.requireParts("deliverInbox"),
        inbox: this.inbox!,
        plugins: this.plugins,
        agent: this.name,
        waitingForPeople,
      };
      return deliverInbox({ ...context, systemPrompt: () => this.composeSystemPrompt() }, options);
    });
  }

  private async runRequest(request: string | ContentPart[], settings: RequestSettings): Promise<RequestOutcome> {
    const { signal, spec } = settings;
    throwIfAborted(signal);
    const parts = this.requireParts("processRequest");
    // Hooks may compact (forceCompaction), so the count starts before them.
    const used = usageSince(() => parts.promptMachine.usage);
    const input = toUserInput(request);
    const preprocessed = (await this.plugins.preprocess(this.name, input.text)) ?? input.text;
    const directives = await runDirectives(preprocessed, this.hooks, this.skills, this.controls, this.bus, signal);

    const message: Message = { sender: "user", text: directives.text };
    if (message.text !== input.text) message.pre_modified_text = input.text;
    if (input.content.length) message.content = input.content;

    if (directives.shortCircuit) {
      await parts.context.appendMessages([message]);
      return withUsage(spec ? structuredShortCircuit(spec, directives.shortCircuit) : directives.shortCircuit, used());
    }
    const contribution = await this.plugins.beforeRequest({ agent: this.name, store: parts.store, signal });
    const before = [...(contribution.messages ?? []), ...directives.skillMessages];
    if (before.length) {
      await parts.context.appendMessages(before);
      await contribution.onPersisted?.();
    }
    parts.promptMachine.setSystemPrompt(this.composeSystemPrompt());
    try {
      if (spec) {
        const native = () => parts.promptMachine.getModel().supportsStructuredOutput === true;
        const ask = (m: Message, o: AskOptions) => parts.agent.ask(m, undefined, signal, o);
        return withUsage(await runStructured({ spec, message, reminder: contribution.reminder, native, ask }), used());
      }
      return withUsage(
        await parts.agent.ask(message, undefined, signal, { systemPromptSuffix: contribution.reminder }),
        used(),
      );
    } catch (error) {
      if (signal?.aborted && !AbortError.isInstance(error)) throw toAbortError(signal.reason);
      throw error;
    }
  }

  private install(plugin: GlovePlugin): void {
    const names = new Set<string>();
    for (const tool of plugin.tools?.() ?? []) {
      if (names.has(tool.name) || this.plugins.findTool(tool.name)) throw new DuplicateToolError(tool.name);
      names.add(tool.name);
    }
    this.plugins.add(plugin);
    if (plugin.onEvent && !this.removeEventSink) {
      this.removeEventSink = this.bus.addSink((event) =>
        this.plugins.onEvent(this.name, this.parts?.store.identifier ?? "", event),
      );
    }
  }

  private assemble(store?: StoreAdapter): this {
    const chosen = store ?? this.pendingStore ?? this.parts?.store ?? new MemoryStore(`session-${crypto.randomUUID()}`);
    this.pendingStore = undefined;
    this.parts = assembleParts({
      config: this.config,
      store: chosen,
      model: this.currentModel,
      systemPrompt: this.composeSystemPrompt(),
      bus: this.bus,
      plugins: this.plugins,
      executor: {
        displayManager: () => this.currentDisplay,
        serverMode: this.serverMode,
        agent: this.name,
        scope: () => this.scope(),
      },
    });
    const { tasks, inbox } = this.config.builtIns ?? {};
    this.installBuiltIn(
      tasks !== false && storeSupportsTasks(chosen) ? new TasksPlugin(this.parts.context) : undefined,
      "glove:tasks",
    );
    const inboxPlugin =
      inbox !== false && storeSupportsInbox(chosen)
        ? new InboxPlugin(chosen, { claim: this.config.inbox?.wake === true })
        : undefined;
    this.inbox = this.installBuiltIn(inboxPlugin, "glove:inbox");
    this.refreshAgentConfig();
    return this;
  }

  /** Built-in tools follow the store's capabilities and `builtIns`; a user tool of the same name wins. */
  private installBuiltIn<P extends GlovePlugin>(plugin: P | undefined, name: string): P | undefined {
    this.plugins.removeByName(name);
    if (!plugin) return undefined;
    if ((plugin.tools?.() ?? []).some((t) => this.plugins.findTool(t.name))) return undefined;
    this.plugins.add(plugin);
    return plugin;
  }

  private get scoped(): boolean {
    return this.config.tools !== undefined || this.config.skills !== undefined;
  }

  /** The tool names this agent may call, or undefined when it is not restricted. */
  private scope(): ReadonlySet<string> | undefined {
    return this.scoped ? new Set(this.plugins.scopedTools(this.agentConfig).tools) : undefined;
  }

  private baseAgentConfig(): AgentConfig {
    const { tools, skills } = this.config;
    return { name: this.name, systemPrompt: this.basePrompt, tools, skills };
  }

  private refreshAgentConfig(): void {
    this.agentConfig = this.plugins.onBuild(this.baseAgentConfig());
    this.parts?.promptMachine.setSystemPrompt(this.composeSystemPrompt());
  }

  private composeSystemPrompt(): string {
    return composeSystemPrompt(this.agentConfig, this.plugins, {
      environment: this.config.environment,
      scoped: this.scoped,
    });
  }

  private requireParts(member: string): GloveParts {
    if (!this.parts) {
      throw new ConfigurationError(`Glove.${member} is only available after build(). Call .build() first.`);
    }
    return this.parts;
  }
}
