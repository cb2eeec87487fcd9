import type { Redis } from "ioredis";
import type { EventLog } from "../../conversations/event-log.js";

interface Watch {
  key: string;
  log: EventLog;
  /** A read of the stream is under way; `again`: an event it may have missed arrived meanwhile. */
  filling: boolean;
  again: boolean;
}

/** Stream entries as ioredis returns them: `[[id, [field, value, …]], …]`. */
type XRangeReply = Array<[string, string[]]>;

/** A stream entry's event: fields `t` (type), `d` (JSON data) and, after a new owner's jump, `p` (the id it follows). */
export function streamEntry(
  entryId: string,
  fields: string[],
): { id: number; type: string; json: string; prev: number | undefined } {
  let type = "message";
  let json = "null";
  let prev: number | undefined;
  for (let i = 0; i + 1 < fields.length; i += 2) {
    if (fields[i] === "t") type = fields[i + 1]!;
    else if (fields[i] === "d") json = fields[i + 1]!;
    else if (fields[i] === "p") prev = Number(fields[i + 1]);
  }
  return { id: Number(entryId.slice(0, entryId.indexOf("-"))), type, json, prev };
}

/** Entries read per XRANGE while catching up. */
const FILL_COUNT = 1000;

/**
 * Follows the event streams of every conversation this instance serves, feeding each
 * conversation's local log, which all its SSE readers share: no Redis connection per client.
 * The emit script publishes every event on the stream key's channel right after adding it, so an
 * event costs one pub/sub message per instance that follows the conversation (no command per
 * read, whatever the number of streams). The stream stays the truth: an event that does not
 * follow the log's last id (subscribed late, or messages lost while a connection was down) makes
 * the log read the stream from its last id (XRANGE), and so does every (re)connection, after
 * subscribing again.
 */
export class EventTail {
  readonly #lanes: Lane[];

  constructor(command: Redis, lanes: number, onError: (error: unknown) => void) {
    this.#lanes = Array.from({ length: Math.max(1, lanes) }, () => new Lane(command, onError));
  }

  /** Follows a conversation's stream from its log's last id (resolves once subscribed and caught up). */
  watch(conversationId: string, key: string, log: EventLog): Promise<void> {
    return this.#lane(conversationId).add(conversationId, key, log);
  }

  /**
   * An event this instance just wrote: its readers get it now instead of after its message
   * (which then skips it). Only when it is the very next id: anything else waits for the stream.
   */
  deliverLocal(conversationId: string, id: number, type: string, json: string): void {
    const log = this.#lane(conversationId).log(conversationId);
    if (log && log.lastId === id - 1) log.appendNumbered(id, type, json);
  }

  unwatch(conversationId: string): void {
    this.#lane(conversationId).remove(conversationId);
  }

  async close(): Promise<void> {
    await Promise.all(this.#lanes.map((lane) => lane.close()));
  }

  #lane(conversationId: string): Lane {
    let hash = 0;
    for (let i = 0; i < conversationId.length; i++) hash = (hash * 31 + conversationId.charCodeAt(i)) | 0;
    return this.#lanes[Math.abs(hash) % this.#lanes.length]!;
  }
}

/** One subscriber connection and the conversations it follows. */
class Lane {
  /** By conversation id, and by channel (the stream key). */
  readonly #watches = new Map<string, Watch>();
  readonly #byKey = new Map<string, Watch>();
  readonly #subscriber: Redis;
  #closed = false;

  constructor(
    private readonly command: Redis,
    private readonly onError: (error: unknown) => void,
  ) {
    // Subscriptions are restored here, not by ioredis: the stream is read only once they hold.
    this.#subscriber = command.duplicate({
      enableAutoPipelining: false,
      maxRetriesPerRequest: null,
      autoResubscribe: false,
    });
    this.#subscriber.on("error", () => undefined);
    this.#subscriber.on("message", (channel: string, message: string) => this.#onMessage(channel, message));
    this.#subscriber.on("ready", () => void this.#resubscribe());
  }

  async add(id: string, key: string, log: EventLog): Promise<void> {
    const previous = this.#watches.get(id);
    if (previous) this.#byKey.delete(previous.key);
    const watch: Watch = { key, log, filling: false, again: false };
    this.#watches.set(id, watch);
    this.#byKey.set(key, watch);
    // While Redis is away the subscription waits in ioredis's queue; reconnecting subscribes
    // everything again and catches up, so this need not wait for it.
    if (this.#subscriber.status !== "ready") return;
    await this.#subscriber.subscribe(key).catch(() => undefined);
    await this.#fill(watch);
  }

  log(id: string): EventLog | undefined {
    return this.#watches.get(id)?.log;
  }

  remove(id: string): void {
    const watch = this.#watches.get(id);
    if (!watch) return;
    this.#watches.delete(id);
    this.#byKey.delete(watch.key);
    if (!this.#closed) void this.#subscriber.unsubscribe(watch.key).catch(() => undefined);
  }

  async close(): Promise<void> {
    this.#closed = true;
    this.#subscriber.disconnect();
  }

  /** `<id>\n<type>\n<json>`, as the emit script publishes it (JSON holds no raw newline). */
  #onMessage(channel: string, message: string): void {
    const watch = this.#byKey.get(channel);
    if (!watch) return;
    const first = message.indexOf("\n");
    const second = message.indexOf("\n", first + 1);
    if (first === -1 || second === -1) return;
    // `<id>` or, for an event a new owner continued the stream with, `<id>:<the id it follows>`.
    const head = message.slice(0, first);
    const colon = head.indexOf(":");
    const id = Number(colon === -1 ? head : head.slice(0, colon));
    const prev = colon === -1 ? id - 1 : Number(head.slice(colon + 1));
    const log = watch.log;
    if (id <= log.lastId) return; // delivered already (by this instance, or by a read of the stream)
    if (prev === log.lastId) {
      log.appendNumbered(id, message.slice(first + 1, second), message.slice(second + 1), prev);
      return;
    }
    void this.#fill(watch); // a gap: the events between are in the stream
  }

  /** Reads the stream after the log's last id until it holds everything the stream had. */
  async #fill(watch: Watch): Promise<void> {
    if (watch.filling) {
      watch.again = true;
      return;
    }
    watch.filling = true;
    try {
      do {
        watch.again = false;
        if (watch.log.closed || this.#byKey.get(watch.key) !== watch) return;
        const entries = (await this.command.xrange(
          watch.key,
          `${watch.log.lastId + 1}-0`,
          "+",
          "COUNT",
          FILL_COUNT,
        )) as XRangeReply;
        for (const [entryId, fields] of entries) {
          const entry = streamEntry(entryId, fields);
          watch.log.appendNumbered(entry.id, entry.type, entry.json, entry.prev);
        }
        if (entries.length === FILL_COUNT) watch.again = true;
      } while (watch.again);
    } catch (error) {
      // Redis away: the reconnection reads every followed stream again.
      if (!this.#closed) this.onError(error);
    } finally {
      watch.filling = false;
    }
  }

  /** After (re)connecting: subscribe to every followed stream, then read what was missed meanwhile. */
  async #resubscribe(): Promise<void> {
    const watches = [...this.#watches.values()];
    if (watches.length === 0 || this.#closed) return;
    try {
      await this.#subscriber.subscribe(...watches.map((w) => w.key));
    } catch (error) {
      if (!this.#closed) this.onError(error);
      return; // the next "ready" tries again
    }
    await Promise.all(watches.map((watch) => this.#fill(watch)));
  }
}
