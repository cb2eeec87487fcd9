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

/** What a hook receives: the user's text and full control of the agent. */
export interface HookContext {
  name: string;
  /** What the user typed. */
  rawText: string;
  /** The working text: bound directives removed, earlier hooks' rewrites applied. */
  parsedText: string;
  controls: AgentControls;
  signal?: AbortSignal;
}

/** What a hook may return: rewritten text, or an answer that skips the model. */
export interface HookResult {
  /** Replaces the working text for later hooks, skills and the stored user message. */
  rewriteText?: string;
  /** Ends the turn without calling the model. */
  shortCircuit?: { message: Message } | { result: ModelPromptResult };
}

/** Runs when the user's message names the hook; may rewrite the text or end the turn. */
export type HookHandler = (ctx: HookContext) => Promise<HookResult | void> | HookResult | void;

/** What a skill receives when the user or the model invokes it. */
export interface SkillContext {
  name: string;
  /** source "user": the message after directives are removed; source "agent": `args ?? ""`. */
  parsedText: string;
  /** Free-form arguments the model supplied (source "agent" only). */
  args?: string;
  source: "user" | "agent";
  controls: AgentControls;
}

/** Produces the context a skill injects into the conversation. */
export type SkillHandler = (ctx: SkillContext) => Promise<string | ContentPart[]>;

/** How a skill is offered to the model. */
export interface SkillOptions {
  /** Shown to the model in the glove_invoke_skill tool. */
  description?: string;
  /** Let the model invoke the skill through glove_invoke_skill. Default false. */
  exposeToAgent?: boolean;
}

/** A skill for `defineSkill`: its name, its handler and how the model sees it. */
export interface DefineSkillArgs extends SkillOptions {
  name: string;
  handler: SkillHandler;
}

/** What a mention handler receives when the model calls the subagent. */
export interface MentionContext {
  name: string;
  /** The task prompt the model wrote for the subagent. */
  prompt: string;
  controls: AgentControls;
  signal?: AbortSignal;
}

/** Answers the model's task for a mention subagent. */
export type MentionHandler = (ctx: MentionContext) => Promise<string | ContentPart[]>;

/** How a mention subagent is described to the model. */
export interface MentionOptions {
  /** Shown to the model in the glove_invoke_subagent tool. */
  description?: string;
}

/** A mention for `defineMention`: a subagent answered by a plain handler. */
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

/** Builds the child Glove that handles one subagent invocation. */
export type SubAgentFactory = (ctx: SubAgentFactoryContext) => IGloveRunnable | Promise<IGloveRunnable>;

/** A subagent for `defineSubAgent`: its name, the factory of its Glove and what the model is told. */
export interface DefineSubAgentArgs {
  name: string;
  factory: SubAgentFactory;
  description?: string;
}
