import type { StoreAdapter } from "glove-core";
import type { EventLog } from "./event-log.js";
import type { InboxPoller } from "./inbox-poller.js";

/**
 * Tasks and inbox of a conversation, pushed as `tasks` / `inbox` events whenever they change:
 * after this process writes them, and (inbox) when another process resolves an item, found by
 * re-reading while someone is watching.
 */
export class SideLists {
  #tasksSeen = "";
  #inboxSeen = "";
  #unwatch: (() => void) | undefined;

  constructor(
    private readonly conversationId: string,
    private readonly store: StoreAdapter,
    private readonly log: EventLog,
    private readonly poller: InboxPoller,
    private readonly watched: () => boolean,
    /** Called when the inbox changed (an answer may wait for delivery, see inbox-wake.ts). */
    private readonly inboxChanged: () => void = () => undefined,
  ) {}

  /** Reads the current lists (no events: the snapshot carries them) and starts the inbox poll. */
  async start(): Promise<void> {
    if (this.store.getTasks) this.#tasksSeen = JSON.stringify(await this.store.getTasks());
    if (!this.store.getInboxItems) return;
    this.#inboxSeen = JSON.stringify(await this.store.getInboxItems());
    this.#unwatch = this.poller.watch(this.conversationId, () => this.#readInbox(), this.watched);
  }

  stop(): void {
    this.#unwatch?.();
    this.#unwatch = undefined;
  }

  async refreshTasks(): Promise<void> {
    if (!this.store.getTasks) return;
    const tasks = await this.store.getTasks().catch(() => undefined);
    if (!tasks) return;
    const seen = JSON.stringify(tasks);
    if (seen === this.#tasksSeen) return;
    this.#tasksSeen = seen;
    this.log.append("tasks", { tasks });
  }

  async refreshInbox(): Promise<void> {
    await this.#readInbox().catch(() => undefined);
  }

  /** Reads the inbox and announces a change; throws when the store could not be read (the poller retries). */
  async #readInbox(): Promise<void> {
    if (!this.store.getInboxItems) return;
    const items = await this.store.getInboxItems();
    const seen = JSON.stringify(items);
    if (seen === this.#inboxSeen) return;
    this.#inboxSeen = seen;
    this.log.append("inbox", { items });
    this.inboxChanged();
  }
}
