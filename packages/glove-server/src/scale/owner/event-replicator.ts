import type { Redis } from "ioredis";

/**
 * Appends a batch of one conversation's events to its stream and publishes each on the stream's
 * channel (`<id>\n<type>\n<json>`, what event-tail.ts reads), only while the owner key still names
 * this instance. KEYS: owner key, stream key. ARGV: instance, MAXLEN, stream lifetime (ms), then
 * id, previous id ('' when it is id - 1), type, json per event. An event after a jump (a new
 * owner's first, continuing a dead owner's stream) carries the stream's id it follows (`p`), so
 * readers go on across the jump. An id at or below the stream's last is skipped (a resent batch).
 * Returns 0 when this instance no longer owns the conversation (nothing written).
 */
const REPLICATE = `
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
for i = 4, #ARGV, 4 do
  local added
  local head = ARGV[i]
  if ARGV[i + 1] == '' then
    added = redis.pcall('XADD', KEYS[2], 'MAXLEN', '~', ARGV[2], ARGV[i] .. '-0', 't', ARGV[i + 2], 'd', ARGV[i + 3])
  else
    added = redis.pcall('XADD', KEYS[2], 'MAXLEN', '~', ARGV[2], ARGV[i] .. '-0', 't', ARGV[i + 2], 'd', ARGV[i + 3], 'p', ARGV[i + 1])
    head = head .. ':' .. ARGV[i + 1]
  end
  if type(added) ~= 'table' or not added.err then
    redis.call('PUBLISH', KEYS[2], head .. '\\n' .. ARGV[i + 2] .. '\\n' .. ARGV[i + 3])
  end
end
redis.call('PEXPIRE', KEYS[2], ARGV[3])
return 1
`;

/** How long a batch is retried while Redis fails (a restart is a pause; the conversation's later batches wait behind it). */
const RETRY_MS = 60_000;

type ScriptedRedis = Redis & {
  gloveReplicate(ownerKey: string, streamKey: string, ...args: Array<string | number>): Promise<number>;
};

interface Batch {
  ownerKey: string;
  streamKey: string;
  args: string[];
  /** Resolved once this batch is in Redis (or failed). */
  flushed: Promise<void>;
  done: () => void;
}

/**
 * Copies the events of the conversations this instance owns to Redis, where other instances'
 * readers follow them and any instance replays them after `Last-Event-ID`. The owner's own readers
 * never wait for this: they read the in-memory log. Events are sent in batches, one script call
 * per conversation per event-loop turn, in order, with the ids the owner gave them.
 */
export class EventReplicator {
  readonly #redis: ScriptedRedis;
  #pending = new Map<string, Batch>();
  #scheduled = false;
  /** The batch in flight per conversation: the next one waits for it (a conversation's batches stay in order). */
  readonly #inFlight = new Map<string, Promise<void>>();

  constructor(
    redis: Redis,
    private readonly instanceId: string,
    private readonly limits: { maxLen: number; maxAgeMs: number },
    private readonly keys: (conversationId: string) => { ownerKey: string; streamKey: string },
    /**
     * Redis refused a batch (the owner key is gone — Redis lost its data — or names another
     * instance): true when this instance owns the conversation again and the batch goes again.
     */
    private readonly reclaim: (conversationId: string) => Promise<boolean>,
    private readonly onError: (error: unknown) => void,
  ) {
    redis.defineCommand("gloveReplicate", { numberOfKeys: 2, lua: REPLICATE });
    this.#redis = redis as ScriptedRedis;
  }

  /** The last id sent per conversation: an event that does not follow it says which one it follows. */
  readonly #lastSent = new Map<string, number>();

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
    if (!batch) {
      let done = () => undefined as void;
      const flushed = new Promise<void>((resolve) => (done = resolve));
      batch = { ...this.keys(conversationId), args: [], flushed, done };
      this.#pending.set(conversationId, batch);
    }
    const last = this.#lastSent.get(conversationId);
    batch.args.push(String(id), last === undefined || last === id - 1 ? "" : String(last), type, json);
    this.#lastSent.set(conversationId, id);
    if (!this.#scheduled) {
      this.#scheduled = true;
      setImmediate(() => this.#flush());
    }
  }

  /** Resolves once every event pushed so far for the conversation is in Redis (or was refused). */
  async flushed(conversationId: string): Promise<void> {
    await this.#pending.get(conversationId)?.flushed;
    await this.#inFlight.get(conversationId);
  }

  #flush(): void {
    this.#scheduled = false;
    const batches = this.#pending;
    this.#pending = new Map();
    for (const [conversationId, batch] of batches) {
      const previous = this.#inFlight.get(conversationId) ?? Promise.resolve();
      const sending = previous.then(() => this.#send(conversationId, batch));
      this.#inFlight.set(conversationId, sending);
      void sending.then(() => {
        if (this.#inFlight.get(conversationId) === sending) this.#inFlight.delete(conversationId);
      });
    }
  }

  async #send(conversationId: string, batch: Batch): Promise<void> {
    const { maxLen, maxAgeMs } = this.limits;
    const deadline = Date.now() + RETRY_MS;
    try {
      for (let attempt = 0; ; attempt++) {
        try {
          const held = await this.#redis.gloveReplicate(
            batch.ownerKey,
            batch.streamKey,
            this.instanceId,
            maxLen,
            maxAgeMs,
            ...batch.args,
          );
          if (held === 1 || !(await this.reclaim(conversationId))) return;
        } catch (error) {
          this.onError(error);
          if (Date.now() > deadline) {
            // Given up: readers elsewhere miss these events and start over from a snapshot.
            this.#lastSent.delete(conversationId);
            return;
          }
          await new Promise((resolve) => setTimeout(resolve, Math.min(50 * 2 ** attempt, 1000)));
        }
      }
    } finally {
      batch.done();
    }
  }
}
