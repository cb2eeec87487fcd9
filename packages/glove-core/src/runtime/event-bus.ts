import type {
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
  }

  remove(subscriber: SubscriberAdapter): void {
    this.subscribers.delete(subscriber);
  }

  /** Adds a whole-event listener; returns a function that removes it. */
  addSink(sink: EventSink): () => void {
    this.sinks.add(sink);
    return () => this.sinks.delete(sink);
  }

  get size(): number {
    return this.subscribers.size + this.sinks.size;
  }

  /** The delivery of the previous event; each delivery waits for it. */
  private tail: Promise<void> = Promise.resolve();

  /**
   * Queues the event behind every earlier one, so concurrent emitters (parallel
   * tools, un-awaited text deltas) still reach each subscriber one at a time, in
   * order. A subscriber must not await an emit on the same bus from inside record().
   */
  readonly emit: NotifySubscribersFunction = <T extends SubscriberEventType>(
    type: T,
    data: SubscriberEventDataMap[T],
  ): Promise<void> => {
    if (this.size === 0) return this.tail;
    const delivery = this.tail.then(() => this.deliver(type, data));
    this.tail = delivery;
    return delivery;
  };

  private async deliver<T extends SubscriberEventType>(type: T, data: SubscriberEventDataMap[T]): Promise<void> {
    for (const subscriber of this.subscribers) {
      try {
        await subscriber.record(type, data);
      } catch (error) {
        console.error(`[glove] subscriber failed on "${type}" event; continuing.`, error);
      }
    }
    if (this.sinks.size === 0) return;
    const event = { type, ...data } as SubscriberEvent;
    for (const sink of this.sinks) {
      try {
        await sink(event);
      } catch (error) {
        console.error(`[glove] event listener failed on "${type}" event; continuing.`, error);
      }
    }
  }
}
