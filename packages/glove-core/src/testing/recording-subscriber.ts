import type {
  SubscriberAdapter,
  SubscriberEvent,
  SubscriberEventDataMap,
  SubscriberEventType,
} from "../types/index.js";

/** A subscriber that keeps every event it receives, for assertions in tests. */
export class RecordingSubscriber implements SubscriberAdapter {
  readonly events: SubscriberEvent[] = [];

  async record<T extends SubscriberEventType>(event_type: T, data: SubscriberEventDataMap[T]): Promise<void> {
    this.events.push({ type: event_type, ...data } as SubscriberEvent);
  }

  /** Event types in the order received. */
  types(): SubscriberEventType[] {
    return this.events.map((e) => e.type);
  }

  /** The events of one type. */
  ofType<T extends SubscriberEventType>(type: T): Array<Extract<SubscriberEvent, { type: T }>> {
    return this.events.filter((e): e is Extract<SubscriberEvent, { type: T }> => e.type === type);
  }

  clear(): void {
    this.events.length = 0;
  }
}
