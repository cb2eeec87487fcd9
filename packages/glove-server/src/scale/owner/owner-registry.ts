import type { Redis } from "ioredis";

/**
 * Takes the conversation unless a live instance owns it: returns the owner after the attempt and,
 * when this instance took it from nobody, the last event id its previous owner left on a clean
 * release (consumed: a later owner after a crash never sees it). KEYS: the conversation's owner
 * key, its handoff key; ARGV: this instance, the key's lifetime (ms), the prefix of instance keys.
 * An owner is live while its instance key exists (renewed by its heartbeat).
 */
const ACQUIRE = `
local current = redis.call('GET', KEYS[1])
if current == ARGV[1] then return {current, ''} end
if current and redis.call('EXISTS', ARGV[3] .. current) == 1 then return {current, ''} end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
local handoff = redis.call('GET', KEYS[2])
if handoff then redis.call('DEL', KEYS[2]) else handoff = '' end
return {ARGV[1], handoff}
`;

/** The live owner of each conversation (KEYS: owner keys; ARGV[1]: instance key prefix), '' for none. */
const OWNERS = `
local out = {}
for i, key in ipairs(KEYS) do
  local owner = redis.call('GET', key)
  if owner and redis.call('EXISTS', ARGV[1] .. owner) == 1 then out[i] = owner else out[i] = '' end
end
return out
`;

/**
 * Deletes the owner key when it still names this instance (ARGV[1]) and leaves the last event id
 * it handed out (ARGV[2]; '' for none) for the next owner, who continues the ids from there.
 */
const RELEASE = `
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
redis.call('DEL', KEYS[1])
if ARGV[2] ~= '' then redis.call('SET', KEYS[2], ARGV[2], 'PX', ARGV[3]) end
return 1
`;

/** Renews the instance key; 0 when it had lapsed (this instance was taken for dead meanwhile). */
const HEARTBEAT = `
local alive = redis.call('EXISTS', KEYS[1])
redis.call('SET', KEYS[1], '1', 'PX', ARGV[1])
return alive
`;

type ScriptedRedis = Redis & {
  gloveOwnerAcquire(
    key: string,
    handoffKey: string,
    instance: string,
    ttlMs: number,
    instancePrefix: string,
  ): Promise<[string, string]>;
  gloveOwners(...args: Array<string | number>): Promise<string[]>;
  gloveOwnerRelease(
    key: string,
    handoffKey: string,
    instance: string,
    lastId: number | "",
    ttlMs: number,
  ): Promise<number>;
  gloveHeartbeat(key: string, ttlMs: number): Promise<number>;
};

/** How long an owner key outlives its last acquisition (it only names the owner; liveness is the heartbeat's). */
const OWNER_KEY_TTL_MS = 24 * 3600_000;

/**
 * Which instance owns which conversation, in Redis. An instance is live while its heartbeat key
 * exists (renewed every third of `leaseMs`); a conversation's owner key names one instance, and a
 * conversation whose owner is not live may be taken by anyone. This is only the fast way to find
 * the owner: safety comes from the store's writer fence, taken by every new owner.
 */
export class OwnerRegistry {
  readonly #redis: ScriptedRedis;
  readonly #instanceKey: string;
  readonly #instancePrefix: string;
  #timer: ReturnType<typeof setInterval> | undefined;

  constructor(
    redis: Redis,
    private readonly prefix: string,
    readonly instanceId: string,
    readonly leaseMs: number,
    /** Called when the heartbeat finds this instance's key gone: others may own its conversations now. */
    private readonly onLapse: () => void,
    private readonly onError: (error: unknown) => void,
  ) {
    redis.defineCommand("gloveOwnerAcquire", { numberOfKeys: 2, lua: ACQUIRE });
    redis.defineCommand("gloveOwners", { lua: OWNERS });
    redis.defineCommand("gloveOwnerRelease", { numberOfKeys: 2, lua: RELEASE });
    redis.defineCommand("gloveHeartbeat", { numberOfKeys: 1, lua: HEARTBEAT });
    this.#redis = redis as ScriptedRedis;
    this.#instancePrefix = `${prefix}:instance:`;
    this.#instanceKey = this.#instancePrefix + instanceId;
  }

  /** Announces this instance as live and keeps it so. */
  async start(): Promise<void> {
    await this.#redis.gloveHeartbeat(this.#instanceKey, this.leaseMs);
    this.#timer = setInterval(() => void this.#beat(), Math.max(20, Math.floor(this.leaseMs / 3)));
    this.#timer.unref?.();
  }

  ownerKey(conversationId: string): string {
    return `${this.prefix}:{${conversationId}}:owner`;
  }

  /**
   * Takes the conversation when no live instance owns it: the owner afterwards (this instance's id
   * when taken), and the last event id a cleanly released conversation left for its next owner.
   */
  async acquire(conversationId: string): Promise<{ owner: string; handoff: number | undefined }> {
    const [owner, handoff] = await this.#redis.gloveOwnerAcquire(
      this.ownerKey(conversationId),
      this.#handoffKey(conversationId),
      this.instanceId,
      OWNER_KEY_TTL_MS,
      this.#instancePrefix,
    );
    return { owner, handoff: handoff === "" ? undefined : Number(handoff) };
  }

  /** The live owner of each conversation (undefined: none). */
  async owners(conversationIds: string[]): Promise<Array<string | undefined>> {
    if (conversationIds.length === 0) return [];
    const keys = conversationIds.map((id) => this.ownerKey(id));
    const owners = await this.#redis.gloveOwners(keys.length, ...keys, this.#instancePrefix);
    return owners.map((owner) => (owner === "" ? undefined : owner));
  }

  /**
   * Gives the conversation up (only when this instance still owns it). `lastId`: the last event id
   * it handed out, the next owner's ids continue from it; undefined when events may still come
   * after it (a turn handed over while it stops): the next owner starts above the reservation.
   */
  async release(conversationId: string, lastId: number | undefined): Promise<void> {
    await this.#redis.gloveOwnerRelease(
      this.ownerKey(conversationId),
      this.#handoffKey(conversationId),
      this.instanceId,
      lastId ?? "",
      OWNER_KEY_TTL_MS,
    );
  }

  #handoffKey(conversationId: string): string {
    return `${this.prefix}:{${conversationId}}:handoff`;
  }

  /** Stops the heartbeat and removes the instance key: its conversations may be taken at once. */
  async stop(): Promise<void> {
    if (this.#timer) clearInterval(this.#timer);
    this.#timer = undefined;
    await this.#redis.del(this.#instanceKey).catch(() => undefined);
  }

  async #beat(): Promise<void> {
    try {
      if ((await this.#redis.gloveHeartbeat(this.#instanceKey, this.leaseMs)) === 0 && this.#timer) this.onLapse();
    } catch (error) {
      this.onError(error); // Redis away: the key may lapse; the next beat that works reports it
    }
  }
}
