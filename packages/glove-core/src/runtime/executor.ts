import type {
  DisplayManagerAdapter,
  ExecutorControls,
  HandOverFunction,
  PermissionPolicy,
  StoreAdapter,
  SubscriberAdapter,
  Tool,
  ToolCall,
  ToolResult,
} from "../types/index.js";
import { ConfigurationError, DuplicateToolError } from "../errors.js";
import { CompositePlugin } from "../plugins/composite.js";
import { ToolRegistryPlugin } from "../plugins/tool-registry.js";
import { EventBus } from "./event-bus.js";
import { checkPermission, type GatedTool, type PermissionDecision } from "./permissions.js";
import { invokeTool, type InvocationOptions } from "./tool-invocation.js";

/** How an Executor runs tool calls: concurrency, permissions, retries and scope. */
export interface ExecutorOptions {
  /** Shared event bus; a private one by default. */
  bus?: EventBus;
  /** The plugins whose tools this executor runs; `registerTool` adds to the first registry in it. */
  plugins?: CompositePlugin;
  /** Tool calls of one turn run at most this many at a time. Default 8. */
  concurrency?: number;
  /** The display manager current at call time (permission prompts). */
  displayManager?: () => DisplayManagerAdapter | undefined;
  serverMode?: boolean;
  permissionPolicy?: PermissionPolicy;
  /** Refuse a tool whose permission prompt is unanswered after this many ms; default: wait. */
  permissionTimeoutMs?: number;
  /** First retry delay in ms; doubles per attempt. Default 250. */
  retryBaseDelayMs?: number;
  /** Agent name reported to plugins. Default "main". */
  agent?: string;
  /** Tool names the agent may call; undefined means every tool. Read on each call. */
  scope?: () => ReadonlySet<string> | undefined;
}

/**
 * Runs the tool calls of a model turn: validates, checks permissions, runs them
 * concurrently, and returns results in call order while `tool_use_result`
 * events go out in completion order (decision 2).
 */
export class Executor implements ExecutorControls {
  readonly bus: EventBus;
  readonly plugins: CompositePlugin;
  private readonly registry: ToolRegistryPlugin;
  private stack: ToolCall[] = [];
  private readonly invocation: InvocationOptions;
  concurrency: number;

  constructor(
    public MAX_RETRIES = 0,
    public store?: StoreAdapter,
    options: ExecutorOptions = {},
  ) {
    this.bus = options.bus ?? new EventBus();
    this.plugins = options.plugins ?? new CompositePlugin();
    const existing = this.plugins.list().find((p) => p instanceof ToolRegistryPlugin);
    this.registry = (existing as ToolRegistryPlugin | undefined) ?? new ToolRegistryPlugin("tools");
    if (!existing) this.plugins.add(this.registry);
    this.concurrency = Math.max(1, options.concurrency ?? 8);
    const timeout = options.permissionTimeoutMs;
    if (timeout !== undefined && !(Number.isFinite(timeout) && timeout > 0)) {
      throw new ConfigurationError(
        `permissionTimeoutMs must be a positive number of milliseconds; got ${String(timeout)}. Leave it out to wait for every answer.`,
      );
    }
    // Getters, so later changes to MAX_RETRIES or store apply to the next call.
    const currentRetries = () => Math.max(0, this.MAX_RETRIES);
    const currentStore = () => this.store;
    this.invocation = {
      plugins: this.plugins,
      get maxRetries() {
        return currentRetries();
      },
      retryBaseDelayMs: options.retryBaseDelayMs ?? 250,
      get store() {
        return currentStore();
      },
      displayManager: options.displayManager ?? (() => undefined),
      serverMode: options.serverMode ?? false,
      policy: options.permissionPolicy,
      timeoutMs: options.permissionTimeoutMs,
      notify: this.bus.emit,
      agent: options.agent ?? "main",
      conversationId: () => currentStore()?.identifier ?? "",
      scope: options.scope ?? (() => undefined),
    };
  }

  /**
   * The permission check a model's call of a gated tool goes through (store, permissionPolicy,
   * then a prompt on the display unless serverMode), for calls that reach a tool another way:
   * an MCP App's `tools/call` from its UI. Fails closed like the model's calls.
   */
  checkPermission(tool: GatedTool, input: unknown, callId?: string, signal?: AbortSignal): Promise<PermissionDecision> {
    return checkPermission(this.invocation, tool, input, callId, signal);
  }

  /** Every tool this executor can run, from every plugin. */
  get tools(): Tool<unknown>[] {
    return this.plugins.tools();
  }

  /** The tools the model is offered: every tool, narrowed to the agent's scope. */
  offeredTools(): Tool<unknown>[] {
    const all = this.plugins.tools();
    const scope = this.invocation.scope();
    return scope ? all.filter((t) => scope.has(t.name)) : all;
  }

  /** Registers a tool; a taken name throws unless `replace` is set (decision 10). */
  registerTool(tool: Tool<unknown>, options?: { replace?: boolean }): void {
    if (!options?.replace && this.plugins.findTool(tool.name)) throw new DuplicateToolError(tool.name);
    this.registry.set(tool);
  }

  addSubscriber(subscriber: SubscriberAdapter): void {
    this.bus.add(subscriber);
  }

  removeSubscriber(subscriber: SubscriberAdapter): void {
    this.bus.remove(subscriber);
  }

  addToolCallToStack(call: ToolCall): void {
    this.stack.push(call);
  }

  /** Runs and clears every queued call. Never throws for a tool's failure. */
  async executeToolStack(handOver?: HandOverFunction, signal?: AbortSignal): Promise<ToolResult[]> {
    const calls = this.stack;
    this.stack = [];
    const results = new Array<ToolResult>(calls.length);
    let next = 0;
    const worker = async () => {
      while (next < calls.length) {
        const index = next++;
        const call = calls[index]!;
        const result = await invokeTool(this.invocation, call, handOver, signal);
        const toolResult: ToolResult = { tool_name: call.tool_name, call_id: call.id, result };
        results[index] = toolResult;
        await this.bus.emit("tool_use_result", { tool_name: call.tool_name, call_id: call.id, result });
      }
    };
    const workers = Math.min(this.concurrency, calls.length);
    await Promise.all(Array.from({ length: workers }, worker));
    return results;
  }
}
