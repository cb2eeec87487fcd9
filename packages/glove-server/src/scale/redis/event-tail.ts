import type { Redis } from "ioredis";
import type { EventLog } from "../../conversations/event-log.js";

interface Watch {
  key: string;
  log: EventLog;
}

/** Stream entries as ioredis returns them: `[key, [[id, [field, value, …]], …]]`. */
type XReadReply = Array<[string, Array<[string, string[]]>]> | null;

/**
 * Follows the event streams of every conversation this instance serves over a few blocking
 * connections (XREAD BLOCK on many streams at once), feeding each conversation's local log, which
 * all its SSE readers share: no Redis connection per client. A stream added while its connection
 * blocks wakes it with CLIENT UNBLOCK. After a Redis restart each stream resumes after the last id
 * its log holds.
 */
export class EventTail {
  readonly #lanes: Lane[];

  constructor(command: Redis, lanes: number, onError: (error: unknown) => void) {
    this.#lanes = Array.from({ length: Math.max(1, lanes) }, () => new Lane(command, onError));
  }

  watch(conversationId: string, key: string, log: EventLog): void {
    this.#lane(conversationId).add(conversationId, { key, log });
  }

  /**
   * An event this instance just wrote: its readers get it now instead of after the next stream
   * read (which then skips it). Only when it is the very next id: anything else waits for the read.
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

class Lane {
  readonly #watches = new Map<string, Watch>();
  readonly #blocking: Redis;
  #clientId: number | undefined;
  #blocked = false;
  #closed = false;
  #wake: (() => void) | undefined;
  readonly #loop: Promise<void>;

  constructor(
    private readonly command: Redis,
    private readonly onError: (error: unknown) => void,
  ) {
    this.#blocking = command.duplicate({ enableAutoPipelining: false, maxRetriesPerRequest: null });
    this.#blocking.on("ready", () => {
      this.#clientId = undefined;
    });
    this.#blocking.on("error", () => undefined);
    this.#loop = this.#run();
  }

  add(id: string, watch: Watch): void {
    this.#watches.set(id, watch);
    this.#interrupt();
  }

  log(id: string): EventLog | undefined {
    return this.#watches.get(id)?.log;
  }

  remove(id: string): void {
    this.#watches.delete(id);
  }

  async close(): Promise<void> {
    this.#closed = true;
    this.#interrupt();
    this.#blocking.disconnect();
    await this.#loop.catch(() => undefined);
  }

  #interrupt(): void {
    this.#wake?.();
    this.#wake = undefined;
    if (this.#blocked && this.#clientId !== undefined) {
      void this.command.client("UNBLOCK", this.#clientId).catch(() => undefined);
    }
  }

  async #run(): Promise<void> {
    while (!this.#closed) {
      if (this.#watches.size === 0) {
        await new Promise<void>((resolve) => (this.#wake = resolve));
        continue;
      }
      try {
        this.#clientId ??= Number(await this.#blocking.client("ID"));
        const entries = [...this.#watches.entries()];
        const keys = entries.map(([, w]) => w.key);
        const ids = entries.map(([, w]) => `${w.log.lastId}-0`);
        this.#blocked = true;
        const reply = (await this.#blocking.xread("COUNT", 1000, "BLOCK", 5000, "STREAMS", ...keys, ...ids)) as XReadReply;
        this.#blocked = false;
        if (!reply) continue;
        const byKey = new Map(entries.map(([, w]) => [w.key, w]));
        for (const [key, items] of reply) {
          const watch = byKey.get(key);
          if (!watch) continue;
          for (const [entryId, fields] of items) {
            const id = Number(entryId.slice(0, entryId.indexOf("-")));
            let type = "message";
            let data = "null";
            for (let i = 0; i + 1 < fields.length; i += 2) {
              if (fields[i] === "t") type = fields[i + 1]!;
              else if (fields[i] === "d") data = fields[i + 1]!;
            }
            watch.log.appendNumbered(id, type, data);
          }
        }
      } catch (error) {
        this.#blocked = false;
        if (this.#closed) return;
        // Redis away (restart, network): retry; positions live in the logs, nothing is skipped.
        if (!String((error as Error)?.message ?? "").includes("UNBLOCKED")) this.onError(error);
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
    }
  }
}
