import type {
  ModelCallAnswer,
  ModelCallAttempt,
  ModelPromptResult,
  ModelWireRequest,
  NotifySubscribersFunction,
  PromptRequest,
  SubscriberEventDataMap,
  SubscriberEventType,
} from "../types/index.js";
import type { EventBus } from "./event-bus.js";

let calls = 0;
/** Per process: a counter after a random prefix, so ids of two processes sharing a store do not meet. */
const PREFIX = Math.random().toString(36).slice(2, 8);

/**
 * Watches one model call for the bus's model call observers: reports its request, notes from
 * the adapter's events when the first token came and when each retry started and why, and
 * reports the answer. Made only while someone observes, so a Glove nobody inspects pays nothing.
 */
export class ModelCallWatch {
  readonly callId = `mc_${PREFIX}${(++calls).toString(36)}`;
  readonly #attempts: ModelCallAttempt[] = [];
  #attemptStart = Date.now();
  #firstTokenAt: number | undefined;
  #finishReason: string | undefined;
  #wired = false;

  constructor(
    private readonly bus: EventBus,
    adapter: string,
    request: PromptRequest,
  ) {
    const last = request.messages[request.messages.length - 1];
    this.bus.reportModelCall({
      phase: "request",
      callId: this.callId,
      adapter,
      startedAt: this.#attemptStart,
      systemPrompt: request.systemPrompt ?? "",
      // The runtime's array grows after the call: the observer gets the call's own list.
      messages: request.messages.slice(),
      toolNames: (request.tools ?? []).map((t) => t.name),
      ...(last?.is_compaction_request ? { compaction: true } : {}),
    });
  }

  /** Where the adapter reports its wire request (PromptRequest.reportWire). */
  readonly reportWire = (wire: ModelWireRequest): void => {
    // Once: a retry sends the same body again.
    if (this.#wired) return;
    this.#wired = true;
    this.bus.reportModelCall({ phase: "wire", callId: this.callId, wire });
  };

  /** `notify` with the call's timing noted on the way through. */
  wrap(notify: NotifySubscribersFunction): NotifySubscribersFunction {
    return <T extends SubscriberEventType>(type: T, data: SubscriberEventDataMap[T]) => {
      this.#note(type, data);
      return notify(type, data);
    };
  }

  #note<T extends SubscriberEventType>(type: T, data: SubscriberEventDataMap[T]): void {
    const now = Date.now();
    if ((type === "text_delta" || type === "tool_use") && this.#firstTokenAt === undefined) this.#firstTokenAt = now;
    else if (type === "model_response" || type === "model_response_complete") {
      const reason = (data as SubscriberEventDataMap["model_response"]).stop_reason;
      if (reason !== undefined) this.#finishReason = reason;
    } else if (type === "model_retry") {
      const retry = data as SubscriberEventDataMap["model_retry"];
      this.#attempts.push({
        attempt: retry.attempt - 1,
        startMs: this.#attemptStart,
        endMs: now,
        outcome: "retried",
        status: retry.status,
        cause: retry.code !== undefined ? `${retry.code}: ${retry.reason}` : retry.reason,
        delayMs: retry.delay_ms,
      });
      // The adapter sleeps the delay, then sends the retry.
      this.#attemptStart = now + retry.delay_ms;
      // What streamed before a retry is not part of the answer that counts.
      this.#firstTokenAt = undefined;
    }
  }

  /** The call answered: its answer goes to the observers. */
  answered(result: ModelPromptResult): void {
    const toolCalls = result.messages.flatMap((m) => m.tool_calls ?? []);
    this.#end({
      messages: result.messages,
      ...(toolCalls.length ? { toolCalls } : {}),
      ...(this.#finishReason !== undefined ? { finishReason: this.#finishReason } : {}),
      usage: { tokens_in: result.tokens_in, tokens_out: result.tokens_out },
    });
  }

  /** The call failed (or was aborted). */
  failed(error: unknown): void {
    this.#end({ error: error instanceof Error ? `${error.name}: ${error.message}` : String(error) }, "failed");
  }

  #end(answer: Partial<ModelCallAnswer>, outcome: ModelCallAttempt["outcome"] = "ok"): void {
    const endedAt = Date.now();
    const attempt = this.#attempts.length === 0 ? 0 : this.#attempts[this.#attempts.length - 1]!.attempt + 1;
    this.#attempts.push({ attempt, startMs: Math.min(this.#attemptStart, endedAt), endMs: endedAt, outcome });
    this.bus.reportModelCall({
      phase: "answer",
      callId: this.callId,
      endedAt,
      ...(this.#firstTokenAt !== undefined ? { firstTokenAt: this.#firstTokenAt } : {}),
      attempts: this.#attempts,
      ...answer,
    });
  }
}
