import type { Redis } from "ioredis";

/**
 * Appends batches of events of many conversations to their streams in one call, and publishes each
 * on its stream's channel (`<id>\n<type>\n<json>`, or `<id>:<prev>\n…` after a jump; what
 * event-tail.ts reads), for each conversation only while its owner key still names this instance.
 * KEYS: owner key and stream key per conversation. ARGV: instance, MAXLEN, stream lifetime (ms),
 * then per conversation its event count and, per event, id, previous id ('' when it is id - 1),
 * type, json. An event after a jump (a new owner's first, continuing a dead owner's stream)
 * carries the id it follows (`p`), so readers go on across the jump. An id at or below the
 * stream's last is skipped (a resent batch). Returns per conversation 1, or 0 when this instance
 * no longer owns it (nothing of it written).
 */
const REPLICATE = `
local out = {}
local a = 4
for c = 1, #KEYS / 2 do
  local n = tonumber(ARGV[a])
  a = a + 1
  if redis.call('GET', KEYS[2 * c - 1]) ~= ARGV[1] then
    out[c] = 0
  else
    for i = a, a + 4 * (n - 1), 4 do
      local added
      local head = ARGV[i]
      if ARGV[i + 1] == '' then
        added = redis.pcall('XADD', KEYS[2 * c], 'MAXLEN', '~', ARGV[2], ARGV[i] .. '-0', 't', ARGV[i + 2], 'd', ARGV[i + 3])
      else
        added = redis.pcall('XADD', KEYS[2 * c], 'MAXLEN', '~', ARGV[2], ARGV[i] .. '-0', 't', ARGV[i + 2], 'd', ARGV[i + 3], 'p', ARGV[i + 1])
        head = head .. ':' .. ARGV[i + 1]
      end
      if type(added) ~= 'table' or not added.err then
        redis.call('PUBLISH', KEYS[2 * c], head .. '\\n' .. ARGV[i + 2] .. '\\n' .. ARGV[i + 3])
      end
    end
    redis.call('PEXPIRE', KEYS[2 * c], ARGV[3])
    out[c] = 1
  end
  a = a + 4 * n
end
return out
`;

/** How long a send is retried while Redis fails (a restart is a pause; later events wait behind it). */
const RETRY_MS = 60_000;

type ScriptedRedis = Redis & {
  gloveReplicate(...args: Array<string | number>): Promise<number[]>;
};

/** One conversation's events not yet in Redis: four arguments per event. */
interface Batch {
  args: string[];
  /** Resolved once these events are in Redis (or given up). */
  flushed: Promise<void>;
  done: () => void;
}

function newBatch(args: string[] = []): Batch {
  let done = () => undefined as void;
  const flushed = new Promise<void>((resolve) => (done = resolve));
  return { args, flushed, done };
}

/**
 * Copies the events of the conversations this instance owns to Redis, where other instances'
 * readers follow them and any instance replays them after `Last-Event-ID`. The owner's own readers
 * never wait for this: they read the in-memory log. One script call carries the events of every
 * conversation that has some, and the next waits for it: while a call is on its way, events gather
 * for the next one (fewer calls the busier the instance), and each conversation's events stay in order.
 */
export class EventReplicator {
  readonly #redis: ScriptedRedis;
  #pending = new Map<string, Batch>();
  /** The batches of the call on its way. */
  #sending = new Map<string, Batch>();
  #busy = false;
  #scheduled = false;
  /** The last id sent per conversation: an event that does not follow it says which one it follows. */
  readonly #lastSent = new Map<string, number>();

  constructor(
    redis: Redis,
    private readonly instanceId: string,
    private readonly limits: { maxLen: number; maxAgeMs: number },
    private readonly keys: (conversationId: string) => { ownerKey: string; streamKey: string },
    /**
     * Redis refused a conversation's events (its owner key is gone — Redis lost its data — or names
     * another instance): true when this instance owns the conversation again and they go again.
     */
    private readonly reclaim: (conversationId: string) => Promise<boolean>,
    private readonly onError: (error: unknown) => void,
  ) {
    redis.defineCommand("gloveReplicate", { lua: REPLICATE });
    this.#redis = redis as ScriptedRedis;
  }

  /**
   * A new owner continues the stream after `lastId` (the last event a dead owner got into it): its
   * first event says it follows that one. Undefined: nothing to continue (forgets what was sent).
   */
  continueAfter(conversationId: string, lastId: number | undefined): void {
    if (lastId === undefined) this.#lastSent.delete(conversationId);
    else this.#lastSent.set(conversationId, lastId);
  }

  push(conversationId: string, id: number, type: string, json: string): void {
    let batch = this.#pending.get(conversationId);
    if (!batch) this.#pending.set(conversationId, (batch = newBatch()));
    const last = this.#lastSent.get(conversationId);
    batch.args.push(String(id), last === undefined || last === id - 1 ? "" : String(last), type, json);
    this.#lastSent.set(conversationId, id);
    this.#schedule();
  }

  /** Resolves once every event pushed so far for the conversation is in Redis (or was given up). */
  async flushed(conversationId: string): Promise<void> {
    await this.#sending.get(conversationId)?.flushed;
    await this.#pending.get(conversationId)?.flushed;
  }

  #schedule(): void {
    if (this.#scheduled || this.#busy) return;
    this.#scheduled = true;
    setImmediate(() => void this.#flush());
  }

  async #flush(): Promise<void> {
    this.#scheduled = false;
    if (this.#pending.size === 0) return;
    this.#busy = true;
    this.#sending = this.#pending;
    this.#pending = new Map();
    try {
      await this.#send(this.#sending);
    } finally {
      this.#sending = new Map();
      this.#busy = false;
      if (this.#pending.size > 0) this.#schedule();
    }
  }

  async #send(batches: Map<string, Batch>): Promise<void> {
    const ids = [...batches.keys()];
    const keys = ids.flatMap((id) => {
      const { ownerKey, streamKey } = this.keys(id);
      return [ownerKey, streamKey];
    });
    const args = ids.flatMap((id) => {
      const batch = batches.get(id)!;
      return [String(batch.args.length / 4), ...batch.args];
    });
    const { maxLen, maxAgeMs } = this.limits;
    let statuses: number[] | undefined;
    const deadline = Date.now() + RETRY_MS;
    for (let attempt = 0; statuses === undefined; attempt++) {
      try {
        statuses = await this.#redis.gloveReplicate(keys.length, ...keys, this.instanceId, maxLen, maxAgeMs, ...args);
      } catch (error) {
        this.onError(error);
        if (Date.now() > deadline) {
          // Given up: readers elsewhere miss these events and start over from a snapshot.
          for (const id of ids) this.#lastSent.delete(id);
          for (const batch of batches.values()) batch.done();
          return;
        }
        await new Promise((resolve) => setTimeout(resolve, Math.min(50 * 2 ** attempt, 1000)));
      }
    }
    for (const [index, id] of ids.entries()) {
      const batch = batches.get(id)!;
      if (statuses[index] === 1 || !(await this.reclaim(id))) {
        batch.done();
        continue;
      }
      // Owned again: these events go with the next call, before any newer ones of the conversation.
      const newer = this.#pending.get(id);
      const again = newBatch(newer ? [...batch.args, ...newer.args] : batch.args);
      void again.flushed.then(() => {
        batch.done();
        newer?.done();
      });
      this.#pending.set(id, again);
    }
  }
}
