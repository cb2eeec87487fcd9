import type { SubscriberEvent } from "./types/index.js";
import { AbortError, ConfigurationError } from "./errors.js";
import type { EventSink } from "./runtime/event-bus.js";
import type { ProcessRequestOptions } from "./structured-output/types.js";

/**
 * Options objects made by `Glove.stream`, mapped to the sink that feeds the stream. Keyed by the
 * object so the sink travels through wrappers of `processRequest` (tracing) untouched, and is
 * attached only while that request runs, not while it waits its turn.
 */
export const requestSinks = new WeakMap<object, EventSink>();

type Waiter = { resolve: (step: IteratorResult<SubscriberEvent>) => void; reject: (error: unknown) => void };

/**
 * The events of one request as an async iterable, ending when the request ends; `result` is the
 * request's result (it rejects with the request's error).
 *
 * - Order: events arrive in the order subscribers receive them.
 * - Backpressure: none is applied to the agent. Events are buffered until read, so a slow or late
 *   consumer never loses one; the buffer holds at most one request's events.
 * - Leaving the loop early (`break`, `return`, a throw in the loop body) aborts the request and
 *   waits for it to wind down, so the stored conversation is valid when the loop has exited;
 *   `result` then rejects with AbortError.
 * - A failed request: the buffered events are yielded first, then the iterator throws its error.
 * - One consumer: iterating the same stream twice shares one buffer.
 */
export class GloveStream<R> implements AsyncIterableIterator<SubscriberEvent> {
  /** The request's result; settles when the request ends (after its last event is buffered). */
  readonly result: Promise<R>;
  private readonly buffer: SubscriberEvent[] = [];
  private waiter: Waiter | undefined;
  private ended: { error?: unknown; failed: boolean } | undefined;
  private readonly controller = new AbortController();

  /** `start` runs the request with the options it is given; they carry the stream's sink and signal. */
  constructor(
    options: Omit<ProcessRequestOptions, "signal"> & { signal?: AbortSignal },
    start: (options: ProcessRequestOptions) => Promise<R>,
  ) {
    const outer = options.signal;
    const forward = () => this.controller.abort(outer?.reason);
    if (outer?.aborted) forward();
    else outer?.addEventListener("abort", forward, { once: true });
    const own: ProcessRequestOptions = { ...options, signal: this.controller.signal };
    requestSinks.set(own, (event) => this.push(event));
    this.result = start(own);
    // Marked handled: a caller who only iterates gets the error from the iterator instead.
    this.result.catch(() => undefined);
    this.result
      .then(
        () => this.end(false),
        (error: unknown) => this.end(true, error),
      )
      .finally(() => outer?.removeEventListener("abort", forward));
  }

  [Symbol.asyncIterator](): this {
    return this;
  }

  next(): Promise<IteratorResult<SubscriberEvent>> {
    const event = this.buffer.shift();
    if (event) return Promise.resolve({ value: event, done: false });
    if (this.ended) return this.finish();
    if (this.waiter)
      return Promise.reject(
        new ConfigurationError(
          "GloveStream.next() was called again before the previous call settled; await each call (for await does).",
        ),
      );
    return new Promise((resolve, reject) => (this.waiter = { resolve, reject }));
  }

  /** Stops reading: aborts the request if it still runs and resolves once it has wound down. */
  async return(): Promise<IteratorResult<SubscriberEvent>> {
    if (!this.ended)
      this.controller.abort(new AbortError("The request was aborted: its event stream was closed by the consumer."));
    await this.result.catch(() => undefined);
    this.buffer.length = 0;
    return { value: undefined, done: true };
  }

  /** Same as `return()`: a throw into the iterator ends the request. */
  async throw(error?: unknown): Promise<IteratorResult<SubscriberEvent>> {
    await this.return();
    throw error;
  }

  private push(event: SubscriberEvent): void {
    if (this.ended) return;
    const waiter = this.waiter;
    if (waiter) {
      this.waiter = undefined;
      waiter.resolve({ value: event, done: false });
    } else {
      this.buffer.push(event);
    }
  }

  private end(failed: boolean, error?: unknown): void {
    this.ended = { failed, error };
    const waiter = this.waiter;
    if (!waiter) return;
    this.waiter = undefined;
    this.finish().then(waiter.resolve, waiter.reject);
  }

  /** After the last event: done, or the request's error once (then done). */
  private finish(): Promise<IteratorResult<SubscriberEvent>> {
    const ended = this.ended!;
    if (!ended.failed) return Promise.resolve({ value: undefined, done: true });
    this.ended = { failed: false };
    return Promise.reject(ended.error);
  }
}
