import { createHash } from "node:crypto";
import type { InboxItem, StoreAdapter } from "glove-core";
import type { ConversationKeys } from "./keys.js";
import type { ScaleShared } from "./scale-shared.js";
import { TurnEmitter } from "./turn-emitter.js";

/** What the emit script compares to drop an `inbox` event equal to the last one on the stream. */
export function inboxDigest(items: InboxItem[]): string {
  return createHash("sha1").update(JSON.stringify(items)).digest("hex");
}

/**
 * Items resolved outside a turn (another instance, an external process writing PostgreSQL) reach
 * open streams: while an instance has readers on a conversation it re-reads the inbox every
 * `inboxPollMs` (through the instance's InboxPoller), and a changed list goes to the shared stream
 * as an `inbox` event. Several instances may see the same change; the digest in the
 * conversation's state lets one event through.
 */
export class InboxWatch {
  readonly #unwatch: () => void;
  /** The list as this instance last read it (JSON): unchanged, there is nothing to compare in Redis. */
  #seen: string | undefined;

  private constructor(
    private readonly conversationId: string,
    private readonly store: StoreAdapter,
    private readonly keys: ConversationKeys,
    private readonly shared: ScaleShared,
    watched: () => boolean,
  ) {
    this.#unwatch = shared.inbox.watch(conversationId, () => this.check(), watched);
  }

  /**
   * Starts watching. The list as it is now becomes the baseline unless the stream already announced
   * one (a snapshot served after this carries the current list anyway).
   */
  static async start(
    conversationId: string,
    store: StoreAdapter,
    keys: ConversationKeys,
    shared: ScaleShared,
    watched: () => boolean,
  ): Promise<InboxWatch | undefined> {
    if (!store.getInboxItems) return undefined;
    // Without a baseline (storage away right now) the first check announces the list once: harmless.
    const items = await store.getInboxItems().catch(() => undefined);
    if (items) await shared.redis.hsetnx(keys.state, "inboxDigest", inboxDigest(items));
    return new InboxWatch(conversationId, store, keys, shared, watched);
  }

  stop(): void {
    this.#unwatch();
  }

  /** Reads the inbox; a list changed since the last read goes to the stream unless it is there already. Throws when storage is away. */
  async check(): Promise<void> {
    const items = await this.store.getInboxItems!();
    const json = JSON.stringify(items);
    if (json === this.#seen) return;
    const digest = inboxDigest(items);
    if ((await this.shared.redis.hget(this.keys.state, "inboxDigest")) !== digest) {
      // Fresh from the catalog: the id base matters only when Redis lost the counter.
      const record = await this.shared.storage.catalog.get(this.conversationId);
      if (!record) return;
      const { redis, scale, options, tail } = this.shared;
      const emitter = new TurnEmitter(
        redis,
        this.keys,
        "",
        record.eventIdsReserved,
        scale,
        () => undefined,
        (error) => options.log("[glove-server] could not write an event to Redis", error),
        (id, type, json) => tail.deliverLocal(this.conversationId, id, type, json),
      );
      await emitter.emit("inbox", { items }, [digest]);
    }
    this.#seen = json;
  }
}
