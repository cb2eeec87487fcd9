import { GloveError, ProviderError } from "../../errors.js";
import type { ModelAdapter, ModelPromptResult, NotifySubscribersFunction, PromptRequest } from "../../types/index.js";
import { transportOptions, type HttpAdapterOptions } from "./adapter-options.js";
import { retryEvent } from "./retry-event.js";
import { wireReport } from "./wire-report.js";
import { post, retryDelay, retryPolicy, sleep, type OpenResponse, type TransportOptions } from "./transport.js";
import type { HttpResponse } from "../shared/http/types.js";

/** What an adapter's response readers need to know about it. */
export interface ReadContext {
  /** Provider id, carried by every ProviderError. */
  provider: string;
}

/** Reads one answer from a response: streamed or whole. */
export type ResponseReader<C extends ReadContext> = (
  context: C,
  response: HttpResponse,
  notify: NotifySubscribersFunction,
  bodyChars: number,
) => Promise<ModelPromptResult>;

/** How an adapter reads answers of each kind. */
export interface ResponseReaders<C extends ReadContext> {
  stream: ResponseReader<C>;
  json: ResponseReader<C>;
}

/** Where one request goes and with which headers. */
export interface RequestTarget {
  url: string;
  headers: Record<string, string>;
}

/**
 * The request lifecycle every HTTP adapter shares: build the body, POST it
 * (retries and timeout in the transport), read the answer streamed or whole,
 * and turn a failure while reading into the right error. Subclasses supply the
 * wire format.
 */
export abstract class HttpModelAdapter<C extends ReadContext> implements ModelAdapter {
  abstract readonly name: string;
  readonly model: string;
  protected systemPrompt: string;
  protected readonly transport: TransportOptions;
  protected readonly stream: boolean;

  /** Set by the subclass constructor; read only once prompts run. */
  protected abstract readonly readContext: C;

  protected constructor(
    provider: string,
    options: HttpAdapterOptions,
    private readonly readers: ResponseReaders<C>,
  ) {
    this.model = options.model;
    this.systemPrompt = options.systemPrompt ?? "";
    this.transport = transportOptions(provider, options);
    this.stream = options.stream ?? true;
  }

  setSystemPrompt(systemPrompt: string): void {
    this.systemPrompt = systemPrompt;
  }

  /** The request body this adapter sends for `request` (exposed for tests and benchmarks). */
  abstract buildBody(request: PromptRequest): string;

  /**
   * Sends the request and reads the answer. A retryable failure that arrives in the body (an
   * overloaded `error` event, a throttling exception frame, a connection cut mid-stream) is
   * retried like an error status, but only while nothing has reached subscribers yet: once a
   * delta went out, a second attempt would show the user a different answer glued to the first,
   * so the error is thrown instead. Retries in the body and at the status share `maxRetries`.
   */
  async prompt(
    request: PromptRequest,
    notify: NotifySubscribersFunction,
    signal?: AbortSignal,
  ): Promise<ModelPromptResult> {
    const body = this.buildBody(request);
    const context = this.contextFor(request);
    // What a subscriber threw surfaces as it is; anything else thrown while reading is about the response.
    let subscriberError: { error: unknown } | undefined;
    let emitted = false;
    // The promise `guarded` last watched: the event bus hands back one settled promise for every event
    // its subscribers took synchronously, and a promise settles once, so one watch each is enough.
    let watched: Promise<void> | undefined;
    const noteFailure = (error: unknown) => void (subscriberError = { error });
    // Not an async wrapper: a streamed delta then costs the reader's own await and nothing more.
    const guarded: NotifySubscribersFunction = (type, data) => {
      emitted = true;
      let delivered: Promise<void>;
      try {
        delivered = notify(type, data);
      } catch (error) {
        noteFailure(error);
        return Promise.reject(error);
      }
      if (delivered !== watched && isThenable(delivered)) {
        watched = delivered;
        // Added before the reader awaits it, so the failure is noted before the reader sees it.
        delivered.then(undefined, noteFailure);
      }
      return delivered;
    };
    // Straight to subscribers, not through `guarded`: a retry notice is no part of the answer.
    const onRetry = (retry: number, delayMs: number, failure: ProviderError) =>
      notify("model_retry", retryEvent(retry, delayMs, failure));
    for (let firstAttempt = 0; ;) {
      const target = await this.target(body);
      // For a request inspector (only when one observes); the same body goes out on every attempt.
      request.reportWire?.(wireReport(this.transport.provider, this.model, target.url, target.headers, body));
      const open = await post(this.transport, {
        url: target.url,
        headers: target.headers,
        body,
        signal,
        firstAttempt,
        onRetry,
      });
      let failure: Error;
      try {
        const read = this.stream ? this.readers.stream : this.readers.json;
        return await read(context, open.response, guarded, body.length);
      } catch (error) {
        if (subscriberError && subscriberError.error === error) throw error;
        const raw = open.readFailure(error);
        failure = GloveError.isInstance(raw)
          ? raw
          : unreadableResponse(this.transport.provider, open.response.status, raw);
      } finally {
        open.close();
      }
      const retried = emitted || !ProviderError.isInstance(failure) ? undefined : failure;
      const delay = retried ? this.retryInBody(open, retried) : undefined;
      if (retried === undefined || delay === undefined) throw failure;
      await onRetry(open.attempt + 1, delay, retried);
      await sleep(delay, signal);
      firstAttempt = open.attempt + 1;
    }
  }

  /** The wait before retrying a failure read from the body, or undefined to give up. */
  private retryInBody(open: OpenResponse, failure: ProviderError): number | undefined {
    if (!failure.retryable || open.timedOut()) return undefined;
    if (open.attempt >= retryPolicy(this.transport).maxRetries) return undefined;
    return retryDelay(this.transport, open.attempt, failure.retryAfterMs);
  }

  /** What the response readers get for `request` (the adapter's context unless a request needs its own). */
  protected contextFor(request: PromptRequest): C {
    void request;
    return this.readContext;
  }

  /** The system prompt for `request`: its own, else the adapter's. */
  protected systemFor(request: PromptRequest): string {
    return request.systemPrompt ?? this.systemPrompt;
  }

  /** URL and headers for a request carrying `body` (signing may need the body). */
  protected abstract target(body: string): RequestTarget | Promise<RequestTarget>;
}

/**
 * Last line of defence: a reader failed on an answer in a way its shape checks did not foresee.
 * The caller still gets a ProviderError naming the provider (never a bare TypeError); the
 * `providerCode` marks it, and tests assert it never happens.
 */
export const UNREADABLE_RESPONSE_CODE = "glove_unreadable_response";

function unreadableResponse(provider: string, status: number, cause: unknown): ProviderError {
  const reason = cause instanceof Error ? `${cause.name}: ${cause.message}` : String(cause);
  return new ProviderError({
    provider,
    status,
    retryable: false,
    providerMessage: `could not read the response (${reason})`,
    providerCode: UNREADABLE_RESPONSE_CODE,
    message: `${provider}: could not read the response (${reason})`,
    cause,
  });
}

function isThenable(value: unknown): value is Promise<void> {
  return typeof value === "object" && value !== null && typeof (value as { then?: unknown }).then === "function";
}
