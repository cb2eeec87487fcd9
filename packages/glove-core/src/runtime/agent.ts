import type {
  HandOverFunction,
  Message,
  ModelPromptResult,
  StoreAdapter,
  StructuredOutputRequest,
  ToolCall,
} from "../types/index.js";
import { throwIfAborted } from "../errors.js";
import { repairForInterruptedTools } from "../stores/message-integrity.js";
import type { Context } from "./context.js";
import type { Executor } from "./executor.js";
import type { Observer } from "./observer.js";
import type { PromptMachine } from "./prompt-machine.js";

/** Per-request options of the agent loop. */
export interface AskOptions {
  /** Shown to the model for this request only (plugin reminders). */
  systemPromptSuffix?: string;
  /** Sent as `PromptRequest.output` on every model call of this request (structured output). */
  output?: StructuredOutputRequest;
}

/**
 * The agent loop: prompt the model, run the tools it asks for, feed the results
 * back, until it answers with text only. Every persisted tool call gets a
 * persisted result before the loop can stop — also on abort (decision 3).
 */
export class Agent {
  constructor(
    readonly store: StoreAdapter,
    readonly executor: Executor,
    readonly context: Context,
    readonly observer: Observer,
    readonly prompt_machine: PromptMachine,
  ) {}

  async ask(
    message: Message,
    handOver?: HandOverFunction,
    signal?: AbortSignal,
    options?: AskOptions,
  ): Promise<ModelPromptResult> {
    throwIfAborted(signal);
    await this.answerInterruptedCalls();
    await this.context.appendMessages([message]);
    return this.loop(handOver, signal, options);
  }

  /** The loop from the stored history as it is (`ask` after its message, or a resumed turn). */
  async loop(handOver?: HandOverFunction, signal?: AbortSignal, options?: AskOptions): Promise<ModelPromptResult> {
    const maxTurns = Math.max(1, this.observer.MAX_TURNS);
    for (let turn = 1; ; turn++) {
      // The live view, not a copy: it is append-only and adapters read it during the call.
      const view = (await this.context.modelView()) as Message[];
      const result = await this.prompt_machine.run(view, this.executor.offeredTools(), signal, {
        systemPromptSuffix: options?.systemPromptSuffix,
        output: options?.output,
      });
      const calls = collectToolCalls(result.messages);
      await this.observer.modelCallComplete(result.messages, {
        tokens_in: result.tokens_in,
        tokens_out: result.tokens_out,
      });

      if (calls.length === 0) {
        await this.observer.tryCompaction(signal);
        return result;
      }

      for (const call of calls) this.executor.addToolCallToStack(call);
      const results = await this.executor.executeToolStack(handOver, signal);
      // Persisted before any abort surfaces: history never holds an orphaned call.
      await this.context.appendMessages([{ sender: "user", text: "", tool_results: results }]);
      throwIfAborted(signal);

      if ((await this.observer.isCompactionImminent()) || (await this.observer.isCompactionDue())) {
        await this.observer.runCompactionNow(signal);
      }

      if (turn >= maxTurns) return this.stopAtTurnLimit(maxTurns);
    }
  }

  /**
   * A crash (or a store failure) between storing a model turn and its results
   * leaves tool calls unanswered. Before anything else is appended they get
   * `aborted` results, so no provider ever receives an orphaned call. Every call
   * since the last user turn counts (a model turn may be stored as several messages).
   */
  private async answerInterruptedCalls(): Promise<void> {
    const repair = repairForInterruptedTools(await this.context.modelView(), []);
    if (repair) await this.context.appendMessages([repair]);
  }

  private async stopAtTurnLimit(maxTurns: number): Promise<ModelPromptResult> {
    const message: Message = {
      sender: "agent",
      text: `I stopped after ${maxTurns} steps without finishing, to avoid running on indefinitely. Tell me how you'd like to continue, or narrow the request.`,
    };
    await this.context.appendMessages([message]);
    return { messages: [message], tokens_in: 0, tokens_out: 0 };
  }
}

/**
 * Tool calls of a model turn. The prompt machine has checked them (a malformed entry is a
 * ProviderError before anything is stored, see tool-call-checks.ts) and given each a unique id;
 * an empty or null call list is dropped so no stored message carries one.
 */
function collectToolCalls(messages: Message[]): ToolCall[] {
  const calls: ToolCall[] = [];
  for (const m of messages) {
    if (Array.isArray(m.tool_calls) && m.tool_calls.length > 0) calls.push(...m.tool_calls);
    else delete m.tool_calls;
  }
  return calls;
}
