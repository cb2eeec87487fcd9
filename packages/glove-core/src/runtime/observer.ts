import type {
  Message,
  ObserverControls,
  StoreAdapter,
  SubscriberAdapter,
  TokenConsumptionCounter,
} from "../types/index.js";
import { Context } from "./context.js";
import type { EventBus } from "./event-bus.js";
import type { PromptMachine } from "./prompt-machine.js";

const COMPACTION_SUMMARY_PREFIX = "[Summary of the conversation so far]";

/**
 * Watches context size and turns, and compacts when a limit is reached
 * (decision 8). Compaction never deletes history: it appends a summary marked
 * `is_compaction` and resets the counters once that summary is stored.
 */
export class Observer implements ObserverControls {
  /** Model turns allowed in one request. */
  MAX_TURNS = 120;
  CONTEXT_COMPACTION_LIMIT: number;
  ESCAPE_COMPACTION_THRESHOLD: number;
  readonly bus: EventBus;
  /** Input + output tokens of the latest model call: the real size of the context. */
  private lastContextSize = 0;

  constructor(
    readonly store: StoreAdapter,
    readonly ctx: Context,
    readonly prompt: PromptMachine,
    public compaction_instructions: string,
    public max_turns?: number,
    context_compaction_limit = 100_000,
    escape_compaction_threshold = 90,
    bus?: EventBus,
  ) {
    this.CONTEXT_COMPACTION_LIMIT = context_compaction_limit;
    this.ESCAPE_COMPACTION_THRESHOLD = escape_compaction_threshold;
    this.bus = bus ?? prompt.bus;
  }

  addSubscriber(subscriber: SubscriberAdapter): void {
    this.bus.add(subscriber);
  }

  removeSubscriber(subscriber: SubscriberAdapter): void {
    this.bus.remove(subscriber);
  }

  setCompactionInstructions(instruction: string): void {
    this.compaction_instructions = instruction;
  }

  setMaxTurns(new_max: number): void {
    this.max_turns = new_max;
  }

  setContextCompactionLimit(new_limit: number): void {
    this.CONTEXT_COMPACTION_LIMIT = new_limit;
  }

  async turnComplete(): Promise<void> {
    await this.store.incrementTurn();
  }

  async getCurrentTurns(): Promise<number> {
    return this.store.getTurnCount();
  }

  /**
   * Stores a model call — its messages, tokens and turn — then reports its tokens. One write when
   * the store has `recordModelCall` (decision 0037); otherwise the three calls it always made.
   * Either way `token_consumption` is emitted once the tokens are stored, with the same payload.
   */
  async modelCallComplete(messages: Message[], tokens: TokenConsumptionCounter): Promise<void> {
    if (!this.ctx.store.recordModelCall || !this.#runsOwnSteps()) {
      await this.addTokensConsumed(tokens);
      await this.ctx.appendMessages(messages);
      await this.turnComplete();
      return;
    }
    this.lastContextSize = tokens.tokens_in + tokens.tokens_out;
    await this.ctx.recordModelCall(messages, tokens);
    await this.bus.emit("token_consumption", { consumption: { ...tokens } });
  }

  /** False when a subclass changed one of the three steps (of this Observer or its Context): it gets them called. */
  #runsOwnSteps(): boolean {
    return (
      this.addTokensConsumed === Observer.prototype.addTokensConsumed &&
      this.turnComplete === Observer.prototype.turnComplete &&
      this.ctx.appendMessages === Context.prototype.appendMessages
    );
  }

  async addTokensConsumed(args: TokenConsumptionCounter): Promise<void> {
    this.lastContextSize = args.tokens_in + args.tokens_out;
    await this.store.addTokens(args);
    await this.bus.emit("token_consumption", { consumption: { ...args } });
  }

  /** Tokens counted since the last compaction (accounting; compaction uses the context size). */
  async getCurrentTokenConsumption(): Promise<number> {
    return this.store.getTokenCount();
  }

  /** The latest model call's input + output tokens. */
  getContextSize(): number {
    return this.lastContextSize;
  }

  async isCompactionImminent(): Promise<boolean> {
    return this.lastContextSize >= (this.ESCAPE_COMPACTION_THRESHOLD / 100) * this.CONTEXT_COMPACTION_LIMIT;
  }

  async isCompactionDue(): Promise<boolean> {
    if (this.lastContextSize >= this.CONTEXT_COMPACTION_LIMIT) return true;
    if (this.max_turns !== undefined && this.max_turns > 0) {
      return (await this.store.getTurnCount()) >= this.max_turns;
    }
    return false;
  }

  async tryCompaction(signal?: AbortSignal): Promise<void> {
    if (await this.isCompactionDue()) await this.runCompactionNow(signal);
  }

  /**
   * Summarises the model's view and appends the summary. The summary call is
   * abortable and its events are not streamed to subscribers: it is not an answer.
   */
  async runCompactionNow(signal?: AbortSignal): Promise<void> {
    const before = this.lastContextSize || (await this.store.getTokenCount());
    await this.bus.emit("compaction_start", { current_token_consumption: before });
    const view = await this.ctx.modelView();
    const request: Message = {
      sender: "user",
      text: this.compaction_instructions,
      is_compaction_request: true,
    };
    const result = await this.prompt.run([...view, request], undefined, signal, {
      notify: async () => {},
    });
    const text = result.messages
      .map((m) => m.text)
      .join("\n")
      .trim();
    const summary: Message = {
      sender: "user",
      text: `${COMPACTION_SUMMARY_PREFIX}\n${text}`,
      is_compaction: true,
    };
    await this.ctx.appendMessages([summary]);
    // Only now that the summary is stored is it safe to forget the counts.
    await this.store.resetCounters();
    this.lastContextSize = result.tokens_out;
    await this.bus.emit("compaction_end", {
      current_token_consumption: await this.store.getTokenCount(),
      summary_message: summary,
    });
  }
}
