import type { GloveConfig, StoreAdapter } from "./types/index.js";
import { DEFAULT_COMPACTION_INSTRUCTIONS } from "./constants.js";
import type { CompositePlugin } from "./plugins/composite.js";
import { Agent } from "./runtime/agent.js";
import { Context } from "./runtime/context.js";
import type { EventBus } from "./runtime/event-bus.js";
import { Executor, type ExecutorOptions } from "./runtime/executor.js";
import { Observer } from "./runtime/observer.js";
import { PromptMachine } from "./runtime/prompt-machine.js";
import type { ModelAdapter } from "./types/index.js";

/** The runtime pieces a build assembles; replaced wholesale by rebuild. */
export interface GloveParts {
  store: StoreAdapter;
  context: Context;
  promptMachine: PromptMachine;
  executor: Executor;
  observer: Observer;
  agent: Agent;
}

export interface AssembleOptions {
  config: GloveConfig;
  store: StoreAdapter;
  model: ModelAdapter;
  systemPrompt: string;
  bus: EventBus;
  plugins: CompositePlugin;
  executor: Pick<ExecutorOptions, "displayManager" | "scope" | "agent" | "serverMode">;
}

/** Wires Context, PromptMachine, Executor, Observer and Agent around one store and bus. */
export function assembleParts(o: AssembleOptions): GloveParts {
  const { config, store, bus } = o;
  const context = new Context(store);
  const promptMachine = new PromptMachine(o.model, context, o.systemPrompt, {
    enableToolResultSummary: config.enableToolResultSummary,
    bus,
  });
  const executor = new Executor(config.maxRetries ?? 0, store, {
    ...o.executor,
    bus,
    plugins: o.plugins,
    concurrency: config.toolConcurrency,
    permissionPolicy: config.permissionPolicy,
    permissionTimeoutMs: config.permissionTimeoutMs,
  });
  const compaction = config.compaction_config ?? {};
  const observer = new Observer(
    store,
    context,
    promptMachine,
    compaction.compaction_instructions ?? DEFAULT_COMPACTION_INSTRUCTIONS,
    compaction.max_turns,
    compaction.compaction_context_limit ?? 100_000,
    90,
    bus,
  );
  if (config.maxTurnsPerRequest !== undefined) observer.MAX_TURNS = config.maxTurnsPerRequest;
  const agent = new Agent(store, executor, context, observer, promptMachine);
  return { store, context, promptMachine, executor, observer, agent };
}
