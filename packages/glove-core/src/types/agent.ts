import type { z } from "zod";
import type { DisplayManagerAdapter, DisplayStrategy, ToolDisplay } from "./display.js";
import type { BranchInfo } from "./branches.js";
import type { ContextControls, ExecutorControls, ObserverControls, PromptControls } from "./controls.js";
import type { SubscriberAdapter } from "./events.js";
import type { ContentPart, Message } from "./message.js";
import type { ModelAdapter, ModelPromptResult } from "./model.js";
import type { ModelCallObserver } from "./model-calls.js";
import type { GlovePlugin } from "./plugin.js";
import type { ModelAnswer, PlainRequestResult } from "./result.js";
import type { InboxItem, StoreAdapter } from "./store.js";
import type { PendingQuestion } from "./waits.js";
import type { ServerModeWithoutPolicy, ToolReturn } from "./tool.js";

/*
 * The agent and everything handed to it or defined on it, in one file: these types refer to one
 * another (a hook gets controls holding the agent; the agent defines hooks), so splitting them
 * would make an import cycle.
 */

/** Members shared by the builder and the runnable. */
interface GloveCommon<Self> {
  fold<I>(args: GloveFoldArgs<I>): Self;
  /** A `/name` hook that runs before the model with full agent controls. */
  defineHook(name: string, handler: HookHandler): Self;
  /** A `/name` skill that injects context; `exposeToAgent` lets the model invoke it. */
  defineSkill(args: DefineSkillArgs): Self;
  /** A subagent the model reaches through glove_invoke_subagent, answered by a handler. */
  defineMention(args: DefineMentionArgs): Self;
  /** A subagent whose factory builds a child Glove per invocation. */
  defineSubAgent(args: DefineSubAgentArgs): Self;
  use(plugin: GlovePlugin): Self;
  addSubscriber(subscriber: SubscriberAdapter): Self;
  removeSubscriber(subscriber: SubscriberAdapter): void;
  setDisplayManager(dm: DisplayManagerAdapter): Self;
  setModel(model: ModelAdapter): void;
  setSystemPrompt(prompt: string): void;
  getSystemPrompt(): string;
  readonly displayManager: DisplayManagerAdapter;
  readonly model: ModelAdapter;
  readonly serverMode: boolean;
  /** The store of a built agent, undefined before `build` (reading `store` then throws). Optional: hosts fall back to `store`. */
  readonly builtStore?: StoreAdapter | undefined;
}

/** A Glove being set up: fold tools, define skills and hooks, then `build` it. */
export interface IGloveBuilder extends GloveCommon<IGloveBuilder> {
  build(store?: StoreAdapter): IGloveRunnable;
}

/** A built agent, ready to process requests. */
export interface IGloveRunnable extends GloveCommon<IGloveRunnable> {
  /** Runs one request; the answer's `text` and the request's `usage` are on either kind of result. */
  processRequest(request: string | ContentPart[], signal?: AbortSignal): Promise<PlainRequestResult>;
  rebuild(store?: StoreAdapter): IGloveRunnable;
  /**
   * Sees every model call's request, wire request and answer (its subagents' included), apart
   * from the subscribers' events; returns the removal. See ModelCallObserver.
   */
  observeModelCalls?(observer: ModelCallObserver): () => void;
  /**
   * Continues the stored conversation's current turn without a new user message (a turn taken
   * over after its process died): unanswered calls are re-run when their tool allows it, else
   * answered as interrupted; a turn whose answer is already stored ends without a model call.
   */
  continueTurn?(signal?: AbortSignal): Promise<ModelAnswer>;
  /** Questions stored for a person that still wait (durable human-in-the-loop); see Glove. */
  pendingSlots?(): Promise<PendingQuestion[]>;
  /** Answers a question, live or stored; a stored one resumes its turn here. See Glove. */
  resolveSlot?(slotId: string, value: unknown, signal?: AbortSignal): Promise<ModelAnswer | undefined>;
  /** Refuses a question, live or stored; a stored one resumes its turn here. See Glove. */
  rejectSlot?(slotId: string, reason: unknown, signal?: AbortSignal): Promise<ModelAnswer | undefined>;
  /** The store this agent currently persists to. */
  readonly store: StoreAdapter;
  /** True when resolved inbox answers may start a turn (`inbox: { wake: true }`); hosts then call `deliverInbox`. */
  readonly wakesOnInbox?: boolean;
  /**
   * Runs a turn, without a user message, that delivers the inbox answers resolved so far; resolves
   * undefined, having run nothing, when there is none to claim (another process delivered them) or
   * a stored question still waits. See Glove.
   */
  deliverInbox?(options?: DeliverInboxOptions): Promise<ModelAnswer | undefined>;
  /**
   * Runs the last turn again from its user message; the old answer stays as a sibling branch
   * (decision 0025). Refused with a `BranchError`: no user message yet, a question still waits.
   */
  regenerate?(signal?: AbortSignal): Promise<ModelAnswer>;
  /**
   * Replaces the user message `messageId` of the active branch with `text` and runs a turn from
   * there; what followed it stays on its own branch. `BranchError` "not_found" for an id that is
   * not a user message of the active branch.
   */
  editMessage?(messageId: string, text: string, signal?: AbortSignal): Promise<PlainRequestResult>;
  /** The active branch and where it has alternatives. */
  branches?(): Promise<BranchInfo>;
  /** Makes the branch through message `messageId` (any branch) active; answers the new `BranchInfo`. */
  switchBranch?(messageId: string): Promise<BranchInfo>;
}

/** Options of `deliverInbox`. */
export interface DeliverInboxOptions {
  signal?: AbortSignal | undefined;
  /** Called once answers are claimed, before they are stored and the model runs: the turn starts now. */
  onClaimed?: ((items: InboxItem[]) => void) | undefined;
}

/** Arguments of `Glove.fold`. */
export interface GloveFoldArgs<I = unknown> {
  name: string;
  description: string;
  inputSchema?: z.ZodType<I> | undefined;
  jsonSchema?: Record<string, unknown> | undefined;
  requiresPermission?: boolean | undefined;
  /**
   * What a `serverMode` Glove with no `permissionPolicy` does with this gated tool: `"deny"`
   * (default, fail closed) or `"allow"` (run without asking; bridged MCP tools use this). With a
   * policy, the store and the policy decide as for any gated tool.
   */
  serverModeWithoutPolicy?: ServerModeWithoutPolicy | undefined;
  unAbortable?: boolean | undefined;
  /** Re-run (instead of answered as interrupted) when a turn is taken over after a crash; see Tool. */
  rerunOnRecovery?: boolean | undefined;
  /**
   * Default true: when the store keeps questions (durable human-in-the-loop), the call's waits
   * are stored and it runs again, with the same input and call id, to resume after a restart.
   * Code before a wait then runs again: wrap what must happen once in `display.step`. false: the
   * tool cannot run twice; a restart answers it as interrupted.
   */
  durable?: boolean | undefined;
  /** How UIs keep this tool's slots visible; stamped on every slot it pushes. */
  displayStrategy?: DisplayStrategy | undefined;
  /** Answers to this tool's `pushAndWait` slots must match this schema (a push may give its own). */
  resolveSchema?: z.ZodType | undefined;
  /** Replace an already folded tool of the same name instead of throwing. */
  replace?: boolean | undefined;
  do(input: I, display: ToolDisplay, glove: IGloveRunnable, signal?: AbortSignal): Promise<ToolReturn>;
  generateToolSummary?(summaryArgs?: unknown): Promise<string>;
}

/** Access to the agent's parts, handed to hooks, skills, mentions and subagent factories. */
export interface AgentControls {
  context: ContextControls;
  observer: ObserverControls;
  promptMachine: PromptControls;
  executor: ExecutorControls;
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
  rewriteText?: string | undefined;
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
  description?: string | undefined;
  /** Let the model invoke the skill through glove_invoke_skill. Default false. */
  exposeToAgent?: boolean | undefined;
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
  description?: string | undefined;
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
  /**
   * The parent's store: derive the child's with `createSubAgentStore(name, { durable })`. On a
   * durable sub-store the child's stored questions outlive the process (the parent's `pendingSlots`
   * and `resolveSlot` reach them); on an ephemeral one they do not.
   */
  parentStore: StoreAdapter;
  /** The parent's display manager, to share its stack with the child; the child's slots get `origin`. */
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
  description?: string | undefined;
}
