import type {
  Message,
  ModelAdapter,
  ModelPromptResult,
  NotifySubscribersFunction,
  PromptControls,
  PromptRequest,
  RequestUsage,
  StructuredOutputRequest,
  SubscriberAdapter,
  Tool,
} from "../types/index.js";
import { ModelResponseError, throwIfAborted, toAbortError } from "../errors.js";
import type { Context } from "./context.js";
import { EventBus } from "./event-bus.js";
import { ModelCallWatch } from "./model-call-watch.js";
import { checkAnswerMessages } from "./tool-call-checks.js";
import { SeenToolCallIds, ToolCallIds } from "./tool-call-ids.js";
import { copyRecord, mapPacked } from "./shapes.js";

/** Per-call options of `PromptMachine.run`. */
export interface PromptRunOptions {
  /** Appended to the system prompt for this call only (e.g. transient reminders). */
  systemPromptSuffix?: string;
  /** Where the adapter's events go instead of the subscribers (compaction uses this). */
  notify?: NotifySubscribersFunction;
  /** Asks the adapter for a JSON answer matching this schema (`PromptRequest.output`). */
  output?: StructuredOutputRequest;
}

/**
 * Older tool results carry their summary instead of their data. "Older" means at
 * or before the latest user message that is not a tool-result carrier; messages
 * left alone are returned by reference.
 */
export function summarizeOlderToolResults(messages: Message[]): Message[] {
  let boundary = -1;
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i]!;
    if (m.sender === "user" && !m.tool_results?.length) {
      boundary = i;
      break;
    }
  }
  if (boundary < 0) return messages;
  let out: Message[] | undefined;
  for (let i = 0; i <= boundary; i++) {
    const m = messages[i]!;
    if (!m.tool_results?.some((r) => typeof r.result.summary === "string" && r.result.summary !== "")) continue;
    out ??= messages.slice();
    out[i] = {
      ...m,
      tool_results: m.tool_results.map((r) =>
        typeof r.result.summary === "string" && r.result.summary !== ""
          ? { ...r, result: { ...r.result, data: r.result.summary } }
          : r,
      ),
    };
  }
  return out ?? messages;
}

/** Options of `new PromptMachine(model, ctx, systemPrompt, options)`. */
export interface PromptMachineOptions {
  /** Swap older tool results' data for their summaries before each model call. Default false. */
  enableToolResultSummary?: boolean | undefined;
  /** Where the model's events go; a new bus when omitted. */
  bus?: EventBus | undefined;
}

/** Sends the conversation and tools to the model adapter and relays its events. */
export class PromptMachine implements PromptControls {
  readonly bus: EventBus;
  enableToolResultSummary: boolean;
  private systemPrompt: string;
  /** Ids used so far, so a model's repeated or empty ids are replaced before anyone sees them. */
  private readonly seenIds = new SeenToolCallIds();
  private readonly tally: RequestUsage = { tokens_in: 0, tokens_out: 0, model_calls: 0 };

  constructor(model: ModelAdapter, ctx: Context, systemPrompt: string, options?: PromptMachineOptions);
  /** @deprecated Pass options: `new PromptMachine(model, ctx, systemPrompt, { enableToolResultSummary, bus })`. */
  constructor(
    model: ModelAdapter,
    ctx: Context,
    systemPrompt: string,
    enableToolResultSummary?: boolean,
    bus?: EventBus,
  );
  constructor(
    private model: ModelAdapter,
    readonly ctx: Context,
    systemPrompt: string,
    options?: PromptMachineOptions | boolean,
    bus?: EventBus,
  ) {
    // The old positional form: (…, enableToolResultSummary?, bus?).
    const given = typeof options === "object" && options !== null ? options : { enableToolResultSummary: options, bus };
    this.systemPrompt = systemPrompt;
    this.enableToolResultSummary = given.enableToolResultSummary ?? false;
    this.bus = given.bus ?? new EventBus();
  }

  addSubscriber(subscriber: SubscriberAdapter): void {
    this.bus.add(subscriber);
  }

  removeSubscriber(subscriber: SubscriberAdapter): void {
    this.bus.remove(subscriber);
  }

  setModel(model: ModelAdapter): void {
    this.model = model;
  }

  getModel(): ModelAdapter {
    return this.model;
  }

  setSystemPrompt(prompt: string): void {
    this.systemPrompt = prompt;
  }

  getSystemPrompt(): string {
    return this.systemPrompt;
  }

  /** Every model call made so far and its tokens, compaction summaries included (a request's usage is the difference). */
  get usage(): RequestUsage {
    return { ...this.tally };
  }

  summarizeOlderToolResults(messages: Message[]): Message[] {
    return summarizeOlderToolResults(messages);
  }

  async run(
    messages: Message[],
    tools?: Tool<unknown>[],
    signal?: AbortSignal,
    options?: PromptRunOptions,
  ): Promise<ModelPromptResult> {
    throwIfAborted(signal);
    const model = this.model;
    const systemPrompt = options?.systemPromptSuffix
      ? `${this.systemPrompt}\n\n${options.systemPromptSuffix}`
      : this.systemPrompt;
    // Adapters written against setSystemPrompt read it when prompt() starts; built-in
    // adapters use request.systemPrompt, which is what keeps shared adapters safe.
    model.setSystemPrompt(systemPrompt);
    const ids = new ToolCallIds(this.seenIds.update(messages), model.name);
    const request: PromptRequest = {
      messages: this.enableToolResultSummary ? summarizeOlderToolResults(messages) : messages,
      tools: tools && tools.length > 0 ? tools : undefined,
      systemPrompt,
      // Only present when asked for, so requests without it look exactly as before.
      ...(options?.output ? { output: options.output } : {}),
    };
    // Only while someone observes model calls (a request inspector): otherwise nothing is recorded.
    const watch = this.bus.observesModelCalls ? new ModelCallWatch(this.bus, model.name, request) : undefined;
    if (watch) request.reportWire = watch.reportWire;
    let notify = ids.notify(options?.notify ?? this.bus.emit);
    if (watch) notify = watch.wrap(notify);
    let result: ModelPromptResult;
    let normalized: ModelPromptResult;
    try {
      try {
        result = await model.prompt(request, notify, signal);
      } catch (error) {
        if (signal?.aborted) throw toAbortError(signal.reason ?? error);
        throw error;
      }
      throwIfAborted(signal);
      normalized = normalizeResult(result, model.name);
    } catch (error) {
      watch?.failed(error);
      throw error;
    }
    normalized.messages = ids.apply(normalized.messages);
    watch?.answered(normalized);
    this.tally.model_calls++;
    this.tally.tokens_in += normalized.tokens_in;
    this.tally.tokens_out += normalized.tokens_out;
    return normalized;
  }
}

function normalizeResult(result: ModelPromptResult, modelName: string): ModelPromptResult {
  if (!result || !Array.isArray(result.messages)) {
    throw new ModelResponseError(
      `Model adapter "${modelName}" returned no messages array. A ModelAdapter's prompt() must resolve to { messages, tokens_in, tokens_out }.`,
    );
  }
  const messages = mapPacked(checkAnswerMessages(result.messages, modelName), (m) => {
    // As `{ ...m, sender: "agent", text }`, but with a map shared by every agent message (shapes.ts).
    const copy = copyRecord(m);
    copy.sender = "agent";
    copy.text = typeof m.text === "string" ? m.text : "";
    return copy;
  });
  if (messages.length === 0) messages.push({ sender: "agent", text: "" });
  return {
    messages,
    tokens_in: tokenCount(result.tokens_in),
    tokens_out: tokenCount(result.tokens_out),
  };
}

/** No model call has this many tokens; a larger report is an adapter bug, capped so sums stay safe. */
const MAX_TOKENS_PER_CALL = 2 ** 31 - 1;

/** Stores keep whole, non-negative counts: anything else a third-party adapter reports is rounded, capped or dropped. */
function tokenCount(value: unknown): number {
  if (typeof value !== "number" || !Number.isFinite(value) || value <= 0) return 0;
  return Math.min(Math.round(value), MAX_TOKENS_PER_CALL);
}
