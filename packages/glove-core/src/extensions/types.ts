import type { Context } from "../runtime/context.js";
import type { Executor } from "../runtime/executor.js";
import type { Observer } from "../runtime/observer.js";
import type { PromptMachine } from "../runtime/prompt-machine.js";
import type {
  ContentPart,
  DisplayManagerAdapter,
  IGloveRunnable,
  Message,
  ModelPromptResult,
  StoreAdapter,
} from "../types/index.js";

/** Full access to the agent's internals, handed to hooks, skills and mentions. */
export interface AgentControls {
  context: Context;
  observer: Observer;
  promptMachine: PromptMachine;
  executor: Executor;
  glove: IGloveRunnable;
  /** Compacts now, whatever the thresholds say. */
  forceCompaction: () => Promise<void>;
}

export interface HookContext {
  name: string;
  /** What the user typed. */
  rawText: string;
  /** The working text: bound directives removed, earlier hooks' rewrites applied. */
  parsedText: string;
  controls: AgentControls;
  signal?: AbortSignal;
}

export interface HookResult {
  /** Replaces the working text for later hooks, skills and the stored user message. */
  rewriteText?: string;
  /** Ends the turn without calling the model. */
  shortCircuit?: { message: Message } | { result: ModelPromptResult };
}

export type HookHandler = (ctx: HookContext) => Promise<HookResult | void> | HookResult | void;

export interface SkillContext {
  name: string;
  /** source "user": the message after directives are removed; source "agent": `args ?? ""`. */
  parsedText: string;
  /** Free-form arguments the model supplied (source "agent" only). */
  args?: string;
  source: "user" | "agent";
  controls: AgentControls;
}

export type SkillHandler = (ctx: SkillContext) => Promise<string | ContentPart[]>;

export interface SkillOptions {
  /** Shown to the model in the glove_invoke_skill tool. */
  description?: string;
  /** Let the model invoke the skill through glove_invoke_skill. Default false. */
  exposeToAgent?: boolean;
}

export interface DefineSkillArgs extends SkillOptions {
  name: string;
  handler: SkillHandler;
}

export interface MentionContext {
  name: string;
  /** The task prompt the model wrote for the subagent. */
  prompt: string;
  controls: AgentControls;
  signal?: AbortSignal;
}

export type MentionHandler = (ctx: MentionContext) => Promise<string | ContentPart[]>;

export interface MentionOptions {
  /** Shown to the model in the glove_invoke_subagent tool. */
  description?: string;
}

export interface DefineMentionArgs extends MentionOptions {
  name: string;
  handler: MentionHandler;
}

/** What a subagent factory receives for each invocation. */
export interface SubAgentFactoryContext {
  name: string;
  prompt: string;
  /** The parent's store: derive the child's with `createSubAgentStore(name, durable)`. */
  parentStore: StoreAdapter;
  /** The parent's display manager, to share its stack with the child. */
  displayManager: DisplayManagerAdapter;
  controls: AgentControls;
  signal?: AbortSignal;
}

export type SubAgentFactory = (ctx: SubAgentFactoryContext) => IGloveRunnable | Promise<IGloveRunnable>;

export interface DefineSubAgentArgs {
  name: string;
  factory: SubAgentFactory;
  description?: string;
}
