import type {
  ModelCallEvent,
  ModelCallObserver,
  NotifySubscribersFunction,
  SubscriberAdapter,
  SubscriberEvent,
  SubscriberEventDataMap,
  SubscriberEventType,
} from "../types/index.js";

/** Receives every event as one object; used by plugins and fan-out to subagents. */
export type EventSink = (event: SubscriberEvent) => void | Promise<void>;

/**
 * Delivers events to subscribers one at a time, awaiting each, so an async
 * subscriber sees events in the order they happened (decision 6). A subscriber
 * that throws is logged and skipped; it never breaks the run.
 */
export class EventBus {
  private readonly subscribers = new Set<SubscriberAdapter>();
  private readonly sinks = new Set<EventSink>();

  add(subscriber: SubscriberAdapter): void {
    this.subscribers.add(subscriber);
    this.cached = undefined;
  }

  remove(subscriber: SubscriberAdapter): void {
    this.subscribers.delete(subscriber);
    this.cached = undefined;
  }

  /** Adds a whole-event listener; returns a function that removes it. */
  addSink(sink: EventSink): () => void {
    this.sinks.add(sink);
    this.cached = undefined;
    return () => {
      this.sinks.delete(sink);
      this.cached = undefined;
    };
  }

  private readonly callObservers = new Set<ModelCallObserver>();

  /** Adds a model call observer (requests and answers, never sent to subscribers); returns its removal. */
  observeModelCalls(observer: ModelCallObserver): () => void {
    this.callObservers.add(observer);
    return () => void this.callObservers.delete(observer);
  }

  /** True while someone observes model calls: only then are requests recorded at all. */
  get observesModelCalls(): boolean {
    return this.callObservers.size > 0;
  }

  /** Tells every model call observer; one that throws is logged and skipped. */
  reportModelCall(event: ModelCallEvent): void {
    for (const observer of this.callObservers) {
      try {
        observer(event);
      } catch (error) {
        console.error(`[glove] model call observer failed on a call's ${event.phase}; continuing.`, error);
      }
    }
  }

  get size(): number {
    return this.subscribers.size + this.sinks.size;
  }

  /** The delivery of the previous event; each delivery waits for it. */
  private tail: Promise<void> = RESOLVED;
  /** Deliveries still running (only those that had to wait for a subscriber). */
  private inFlight = 0;
  /** True during a synchronous delivery: an emit from inside a listener queues behind it. */
  private delivering = false;

  /**
   * Queues the event behind every earlier one, so concurrent emitters (parallel
   * tools, un-awaited text deltas) still reach each subscriber one at a time, in
   * order. A subscriber must not await an emit on the same bus from inside record().
   *
   * When nothing is queued, delivery starts at once and stays synchronous for as long as
   * subscribers answer synchronously (or with a settled promise they return): a streamed event
   * then costs no promise chain. The first subscriber that really waits turns the rest of that
   * delivery into the queue's tail, so order is the same either way.
   */
  readonly emit: NotifySubscribersFunction = <T extends SubscriberEventType>(
    type: T,
    data: SubscriberEventDataMap[T],
  ): Promise<void> => {
    if (this.size === 0) return this.tail;
    if (this.inFlight === 0 && !this.delivering) {
      this.delivering = true;
      let rest: Promise<void> | undefined;
      try {
        rest = this.deliverFrom(type, data, 0);
      } finally {
        this.delivering = false;
      }
      return rest === undefined ? RESOLVED : this.track(rest);
    }
    return this.track(this.tail.then(() => this.deliverFrom(type, data, 0)));
  };

  private track(delivery: Promise<void> | PromiseLike<void>): Promise<void> {
    this.inFlight++;
    const settled = Promise.resolve(delivery).finally(() => this.inFlight--);
    this.tail = settled.catch(() => undefined);
    return settled;
  }

  /**
   * Delivers to the listeners from index `start` on (subscribers first, then sinks). Returns
   * undefined when every listener answered synchronously, else a promise for the rest.
   */
  private deliverFrom<T extends SubscriberEventType>(
    type: T,
    data: SubscriberEventDataMap[T],
    start: number,
  ): Promise<void> | undefined {
    const listeners = this.listeners();
    let event: SubscriberEvent | undefined;
    for (let i = start; i < listeners.length; i++) {
      const listener = listeners[i]!;
      let answer: unknown;
      try {
        answer =
          typeof listener === "function"
            ? listener((event ??= { type, ...data } as SubscriberEvent))
            : // T and its data go together, which a generic cannot show to the union of tuples.
              (listener.record as (type: T, data: SubscriberEventDataMap[T]) => unknown)(type, data);
      } catch (error) {
        report(type, listener, error);
        continue;
      }
      if (isThenable(answer)) {
        return Promise.resolve(answer).then(
          () => this.deliverFrom(type, data, i + 1),
          (error: unknown) => {
            report(type, listener, error);
            return this.deliverFrom(type, data, i + 1);
          },
        );
      }
    }
    return undefined;
  }

  /** Resolves once every event emitted so far has reached every listener (a stream waits for this before it ends). */
  settled(): Promise<void> {
    return this.tail;
  }

  /** Subscribers, then sinks; rebuilt only when they change. */
  private cached: Array<SubscriberAdapter | EventSink> | undefined;
  private listeners(): Array<SubscriberAdapter | EventSink> {
    return (this.cached ??= [...this.subscribers, ...this.sinks]);
  }
}

const RESOLVED: Promise<void> = Promise.resolve();

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return typeof value === "object" && value !== null && typeof (value as { then?: unknown }).then === "function";
}

function report(type: string, listener: SubscriberAdapter | EventSink, error: unknown): void {
  const who = typeof listener === "function" ? "event listener" : "subscriber";
  console.error(`[glove] ${who} failed on "${type}" event; continuing.`, error);
}
