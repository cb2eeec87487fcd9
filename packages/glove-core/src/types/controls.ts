import type { Message } from "./message.js";
import type { ModelAdapter } from "./model.js";
import type { StoreAdapter, Task } from "./store.js";
import type { Tool } from "./tool.js";

/*
 * The parts of an agent that hooks, skills, mentions and subagent factories reach through
 * `AgentControls`, as interfaces: the runtime classes (Context, Observer, PromptMachine, Executor)
 * implement them, so `types/` never imports the classes and stays at the bottom of the imports.
 */

/** The conversation: its store, the model's view of it, and its task list. `Context` implements it. */
export interface ContextControls {
  readonly store: StoreAdapter;
  /** The messages the model sees: from the last compaction onward (a copy). */
  getMessages(): Promise<Message[]>;
  appendMessages(msgs: Message[]): Promise<void>;
  /** Forgets the cached view; the next read goes to the store. */
  invalidate(): void;
  getTasks(): Promise<Task[]>;
  addTasks(tasks: Task[]): Promise<void>;
  updateTask(taskId: string, updates: Partial<Task>): Promise<void>;
}

/** Turn and context-size accounting, and compaction. `Observer` implements it. */
export interface ObserverControls {
  /** Model turns allowed in one request. */
  MAX_TURNS: number;
  CONTEXT_COMPACTION_LIMIT: number;
  getCurrentTurns(): Promise<number>;
  /** Tokens counted since the last compaction. */
  getCurrentTokenConsumption(): Promise<number>;
  /** The latest model call's input + output tokens. */
  getContextSize(): number;
  setCompactionInstructions(instruction: string): void;
  setMaxTurns(maxTurns: number): void;
  setContextCompactionLimit(limit: number): void;
  isCompactionDue(): Promise<boolean>;
  runCompactionNow(signal?: AbortSignal): Promise<void>;
}

/** The model and the system prompt of the next calls. `PromptMachine` implements it. */
export interface PromptControls {
  getModel(): ModelAdapter;
  setModel(model: ModelAdapter): void;
  getSystemPrompt(): string;
  setSystemPrompt(prompt: string): void;
}

/** The tools the agent runs. `Executor` implements it. */
export interface ExecutorControls {
  /** Every tool the executor can run, from every plugin. */
  readonly tools: Tool<unknown>[];
  /** The tools the model is offered: every tool, narrowed to the agent's scope. */
  offeredTools(): Tool<unknown>[];
  /** Registers a tool; a taken name throws unless `replace` is set. */
  registerTool(tool: Tool<unknown>, options?: { replace?: boolean }): void;
}
