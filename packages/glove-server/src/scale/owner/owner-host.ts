import type { Redis } from "ioredis";
import type { AgentSource } from "../../agents/agent-source.js";
import type { ConversationHandle, ConversationHosting } from "../../conversations/conversation-handle.js";
import { ConversationHost } from "../../conversations/conversation-host.js";
import type { InboxPoller } from "../../conversations/inbox-poller.js";
import type { LiveConversation } from "../../conversations/live-conversation.js";
import { HttpError, notFound } from "../../errors.js";
import type { ResolvedServerOptions } from "../../options.js";
import type { Principal } from "../../security/authenticate.js";
import type { ConversationCatalog, ConversationRecord, ServerStorage } from "../../storage/types.js";
import type { ControlChannel, ControlReply, ControlRequest } from "../redis/control-channel.js";
import type { EventTail } from "../redis/event-tail.js";
import { allKeys, conversationKeys } from "../redis/keys.js";
import type { ResolvedRedisScale } from "../redis/redis-scale-options.js";
import { EventReplicator } from "./event-replicator.js";
import { invokeOwned } from "./owned-calls.js";
import { OwnerRegistry } from "./owner-registry.js";
import { FORWARDED_METHODS, type ForwardedMethod, remoteLog, RemoteConversation } from "./remote-conversation.js";

/** What an owner host works with (made by ownerScale). */
export interface OwnerHostParts {
  redis: Redis;
  control: ControlChannel;
  tail: EventTail;
  storage: ServerStorage;
  agents: AgentSource;
  options: ResolvedServerOptions;
  scale: ResolvedRedisScale;
  inboxPoller: InboxPoller;
  instanceId: string;
}

/** How long a forwarded request may take (a turnSettled waits for its turn: longer). */
const CALL_TIMEOUT_MS = 30_000;
const SETTLED_TIMEOUT_MS = 10 * 60_000;
/** Running turns looked at per sweep for a dead owner. */
const SWEEP_LIMIT = 200;

const NOT_SERVED: ControlReply = { ok: false, status: 0, code: "", message: "" };

/**
 * The scale mode's conversations on one instance: the single-process engine (ConversationHost,
 * LiveConversation, TurnRunner) runs every conversation this instance owns, unchanged; the rest
 * is ownership. A request for a conversation no live instance owns makes this instance its owner
 * (taking the store's writer fence first); one owned elsewhere is forwarded there, and its events
 * reach this instance's readers from the Redis stream the owner replicates to. When an owner dies,
 * its lease lapses and an instance with readers of the conversation, or the sweep of running turns,
 * takes it over: the conversation opens here as after a restart.
 */
export class OwnerHost implements ConversationHosting {
  readonly #local: ConversationHost;
  readonly #registry: OwnerRegistry;
  readonly #replicator: EventReplicator;
  readonly #remotes = new Map<string, Promise<RemoteConversation>>();
  /** Conversations this instance owns, by id: the writer number its fenced store writes with. */
  readonly #owned = new Map<string, number>();
  /** Takeovers under way (one per conversation: a second one would fence out the first). */
  readonly #taking = new Map<string, Promise<LiveConversation>>();
  readonly #timers: Array<ReturnType<typeof setInterval>> = [];
  /** Releases under way (closing waits for them before the connections go). */
  readonly #releasing = new Set<Promise<void>>();
  #closed = false;

  constructor(private readonly parts: OwnerHostParts) {
    const { redis, scale, options, storage, instanceId } = parts;
    const log = options.log;
    this.#registry = new OwnerRegistry(
      redis,
      scale.prefix,
      instanceId,
      scale.leaseMs,
      () => void this.#checkOwnership(),
      (error) => log("[glove-server] owner heartbeat failed", error),
    );
    this.#replicator = new EventReplicator(
      redis,
      instanceId,
      { maxLen: scale.streamMaxLen, maxAgeMs: scale.streamMaxAgeMs },
      (id) => ({ ownerKey: this.#registry.ownerKey(id), streamKey: this.#keys(id).events }),
      async (id) => {
        // Closing: what a handed-over turn does while it stops stays here.
        if (this.#closed) return false;
        await this.#checkOwnership([id]);
        return this.#owned.has(id);
      },
      (error) => log("[glove-server] could not replicate events to Redis", error),
    );
    this.#local = new ConversationHost({
      catalog: this.#ownedCatalog(storage.catalog),
      agents: parts.agents,
      storeFor: (id) => this.#storeFor(id),
      options,
      traces: storage.inspect?.traces,
      inboxPoller: parts.inboxPoller,
      onEvent: (id, eventId, type, json) => this.#replicator.push(id, eventId, type, json),
      // A dead owner's running turn continues here; each takeover is counted (turn_resumed's attempt).
      takeover: {
        attempt: async (id, turnId) => {
          const key = this.#keys(id).attempts;
          const [[, taken]] = (await redis
            .multi()
            .hincrby(key, turnId, 1)
            .pexpire(key, scale.streamMaxAgeMs)
            .exec()) as [[Error | null, number], unknown];
          return Number(taken) + 1;
        },
      },
      onClosed: (id, lastId) => {
        const releasing = this.#release(id, lastId);
        this.#releasing.add(releasing);
        void releasing.finally(() => this.#releasing.delete(releasing));
      },
    });
  }

  async start(): Promise<void> {
    await this.#registry.start();
    const { leaseMs } = this.parts.scale;
    const every = (ms: number, run: () => Promise<void>) => {
      const timer = setInterval(() => void run().catch((error: unknown) => this.#log(error)), ms);
      timer.unref?.();
      this.#timers.push(timer);
    };
    every(Math.max(20, Math.floor(leaseMs / 2)), () => this.#followOwners());
    every(leaseMs, () => this.#sweepRunning());
    every(Math.max(50, Math.min(this.parts.options.idleTimeoutMs / 2, 30_000)), () => this.#dropIdleRemotes());
  }

  get size(): number {
    return this.#local.size + this.#remotes.size;
  }

  get hibernated(): number {
    return this.#local.hibernated;
  }

  async open(record: ConversationRecord, principal: Principal): Promise<ConversationHandle> {
    if (this.#owned.has(record.id)) return this.#openOwned(record.id, principal);
    const owner = await this.#acquire(record.id);
    if (owner === this.parts.instanceId) return this.#openOwned(record.id, principal);
    const remote = await this.#remote(record, principal);
    remote.principal = principal;
    return remote;
  }

  /** Runs a conversation's method where it is owned: here (taking it when nobody live owns it) or forwarded. */
  async call<T>(
    record: ConversationRecord,
    principal: Principal,
    method: ForwardedMethod,
    args: unknown[],
  ): Promise<T> {
    const deadline = Date.now() + 2 * this.parts.scale.leaseMs + 1000;
    for (let attempt = 0; ; attempt++) {
      const owner = this.#owned.has(record.id) ? this.parts.instanceId : await this.#acquire(record.id);
      if (owner === this.parts.instanceId) {
        const conversation = await this.#openOwned(record.id, principal);
        return (await invokeOwned(conversation, method, args, this.#replicator)) as T;
      }
      const request: ControlRequest = { op: "call", method, args, principal };
      const timeout = method === "turnSettled" ? SETTLED_TIMEOUT_MS : CALL_TIMEOUT_MS;
      const reply = await this.#whileOwnerLives(
        record.id,
        owner,
        this.parts.control.ask(owner, this.#keys(record.id).control, request, timeout),
      );
      if (reply === "lapsed") continue; // the owner died (or stalled) with the request: ask whoever owns it now
      if (reply === undefined) {
        throw new HttpError(
          503,
          "GLOVE_OWNER_UNAVAILABLE",
          "The instance running this conversation did not answer in time. Retry: a repeated answer is refused with 409, and a message sent again with the same clientMessageId starts no second turn.",
        );
      }
      if (reply !== "unserved") {
        if (reply.ok) return reply.body.value as T;
        throw new HttpError(reply.status, reply.code, reply.message, reply.issues ? { issues: reply.issues } : {});
      }
      // Nobody took the request (its owner died or let go): once its lease lapsed, this instance may take it.
      if (Date.now() > deadline)
        throw new HttpError(503, "GLOVE_OWNER_UNAVAILABLE", "No instance could take this conversation. Retry soon.");
      await new Promise((resolve) => setTimeout(resolve, Math.min(25 * 2 ** attempt, 250)));
    }
  }

  /**
   * `asked`'s answer, or "lapsed" as soon as `owner` is no longer the conversation's live owner (a
   * dead or stalled owner never answers; its lease lapses within the lease time).
   */
  async #whileOwnerLives<T>(id: string, owner: string, asked: Promise<T>): Promise<T | "lapsed"> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    let settled = false;
    const lapsed = new Promise<"lapsed">((resolve) => {
      const check = () => {
        timer = setTimeout(
          () => {
            if (settled) return;
            void this.#registry
              .owners([id])
              .then(([current]) => (current === owner ? check() : resolve("lapsed")))
              .catch(check);
          },
          Math.max(20, Math.floor(this.parts.scale.leaseMs / 2)),
        );
      };
      check();
    });
    try {
      return await Promise.race([asked, lapsed]);
    } finally {
      settled = true;
      clearTimeout(timer);
    }
  }

  async forget(id: string): Promise<void> {
    if (this.#owned.has(id)) await this.#local.forget(id);
    else {
      const [owner] = await this.#registry.owners([id]);
      if (owner !== undefined && owner !== this.parts.instanceId) {
        const request: ControlRequest = { op: "call", method: "forget", args: [], principal: { id: "" } };
        await this.parts.control.ask(owner, this.#keys(id).control, request, CALL_TIMEOUT_MS);
      }
    }
    await this.#dropRemote(id);
    await this.parts.redis.del(...allKeys(this.#keys(id)), this.#registry.ownerKey(id));
  }

  /**
   * Closing hands running turns over instead of ending them: their conversations are released
   * first (no handoff: this instance's turn still stops), so nothing it does while stopping reaches
   * Redis or the catalog, and another instance continues each turn (`turn_resumed`) once it takes
   * the conversation — at once for instances whose readers follow it, else at the next sweep.
   * Idle conversations are released as usual, their ids continuing on the next owner.
   */
  async closeAll(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    for (const timer of this.#timers) clearInterval(timer);
    for (const id of [...this.#owned.keys()]) {
      const conversation = await this.#local.peek(id)?.catch(() => undefined);
      // A turn that only waits for a person is left waiting (written while this instance owns it).
      if (!conversation?.busy || (await conversation.suspendIfWaiting())) continue;
      this.#owned.delete(id);
      this.#records.delete(id);
      await this.#replicator.flushed(id);
      this.#replicator.continueAfter(id, undefined);
      await this.#registry.release(id, undefined).catch((error: unknown) => this.#log(error));
    }
    await this.#local.closeAll();
    await Promise.all(this.#releasing);
    for (const id of [...this.#remotes.keys()]) await this.#dropRemote(id);
    await this.#registry.stop();
  }

  /** Takes the conversation when nobody live owns it; the owner afterwards. */
  async #acquire(id: string): Promise<string> {
    const { owner, handoff } = await this.#registry.acquire(id);
    if (owner === this.parts.instanceId && handoff !== undefined) this.#handoffs.set(id, handoff);
    return owner;
  }

  /** The last event id a cleanly released conversation's previous owner handed out (ids continue from it). */
  readonly #handoffs = new Map<string, number>();

  /** Opens a conversation this instance owns, or takes it (fence first, then the record as it is now). */
  async #openOwned(id: string, principal: Principal): Promise<LiveConversation> {
    if (!this.#owned.has(id)) {
      let taking = this.#taking.get(id);
      if (!taking) {
        taking = this.#take(id, principal).finally(() => this.#taking.delete(id));
        this.#taking.set(id, taking);
      }
      return taking;
    }
    const record = this.#records.get(id) ?? (await this.parts.storage.catalog.get(id));
    if (!record) throw notFound();
    return this.#local.open(record, principal);
  }

  /** The fresh record read with each takeover (a new owner's ids start above everything handed out before). */
  readonly #records = new Map<string, ConversationRecord>();

  async #take(id: string, principal: Principal): Promise<LiveConversation> {
    const { storage, control, redis } = this.parts;
    const fence = storage.turnFence;
    const taken = fence?.takeWithRecord
      ? await fence.takeWithRecord(id)
      : { writer: (await fence?.take(id)) ?? 0, record: await storage.catalog.get(id) };
    const handoff = this.#handoffs.get(id);
    this.#handoffs.delete(id);
    if (!taken.record) {
      await this.#registry.release(id, handoff ?? 0);
      throw notFound();
    }
    // After a clean release the ids go on from the last one handed out; otherwise from above the
    // catalog's reservation, which covers whatever a dead owner handed out.
    const record = handoff === undefined ? taken.record : { ...taken.record, eventIdsReserved: handoff };
    this.#records.set(id, record);
    this.#owned.set(id, taken.writer);
    await control.serve(this.#keys(id).control, (request) => this.#serve(id, request));
    // The stream continues from its last event: readers following it go on across the jump in ids.
    const [last] = (await redis.xrevrange(this.#keys(id).events, "+", "-", "COUNT", 1)) as Array<[string, string[]]>;
    const streamLast = last ? Number(last[0].split("-")[0]) : undefined;
    this.#replicator.continueAfter(id, streamLast);
    const conversation = await this.#local.open(record, principal);
    // Without a clean release, events the previous owner never got into the stream are gone:
    // readers following it get the state as it is now, in the stream, before anything else.
    if (handoff === undefined && streamLast !== undefined) await this.#resync(conversation);
    return conversation;
  }

  /** Logs a `snapshot` event: the conversation's state as of the event before it. */
  async #resync(conversation: LiveConversation): Promise<void> {
    for (;;) {
      const { data, lastId } = await conversation.snapshot();
      // Nothing may come between the state read and its event (a taken-over turn runs meanwhile).
      if (conversation.log.lastId !== lastId) continue;
      conversation.log.append("snapshot", { ...data, lastEventId: lastId + 1 });
      return;
    }
  }

  /** A request forwarded by another instance for a conversation this instance owns. */
  async #serve(id: string, request: ControlRequest): Promise<ControlReply> {
    if (request.op !== "call" || !this.#owned.has(id)) return NOT_SERVED;
    try {
      if (request.method === "forget") {
        await this.#local.forget(id);
        return { ok: true, body: {} };
      }
      if (!(FORWARDED_METHODS as readonly string[]).includes(request.method)) return NOT_SERVED;
      const conversation = await this.#openOwned(id, request.principal);
      const value = await invokeOwned(conversation, request.method as ForwardedMethod, request.args, this.#replicator);
      return { ok: true, body: { value: value ?? null } };
    } catch (error) {
      if (HttpError.isInstance(error))
        return {
          ok: false,
          status: error.status,
          code: error.code,
          message: error.message,
          ...(error.issues ? { issues: error.issues } : {}),
        };
      this.#log(error);
      return {
        ok: false,
        status: 500,
        code: "GLOVE_INTERNAL",
        message: "The server failed; it logged the error. Retry the request.",
      };
    }
  }

  /**
   * The catalog as an owner writes it: a conversation this instance no longer owns (it was taken
   * over while this one was paused) changes nothing there any more, as its store is fenced.
   */
  #ownedCatalog(catalog: ConversationCatalog): ConversationCatalog {
    return {
      create: (record) => catalog.create(record),
      get: (id) => catalog.get(id),
      listByOwner: (owner, limit) => catalog.listByOwner(owner, limit),
      update: (id, changes) => (this.#owned.has(id) ? catalog.update(id, changes) : Promise.resolve()),
      delete: (id) => catalog.delete(id),
    };
  }

  async #storeFor(id: string) {
    const { storage } = this.parts;
    const writer = this.#owned.get(id);
    if (!storage.turnFence || writer === undefined) return storage.store(id);
    return storage.turnFence.store(id, writer, () => this.#owned.get(id) === writer);
  }

  /** The conversation left this instance's memory: it is nobody's until the next request or sweep. */
  async #release(id: string, lastId: number): Promise<void> {
    if (!this.#owned.has(id) || this.#local.peek(id)) return;
    this.#owned.delete(id);
    this.#records.delete(id);
    await this.#replicator.flushed(id);
    this.#replicator.continueAfter(id, undefined);
    await this.#registry.release(id, lastId).catch((error: unknown) => this.#log(error));
  }

  /**
   * After Redis refused a write or the heartbeat had lapsed: conversations another instance owns
   * now leave this one (their writes are fenced already). `ids` undefined: every owned one.
   */
  async #checkOwnership(ids = [...this.#owned.keys()]): Promise<void> {
    const me = this.parts.instanceId;
    for (const id of ids) {
      const owner = await this.#acquire(id).catch(() => me);
      if (owner === me || !this.#owned.has(id)) continue;
      this.#owned.delete(id);
      this.#records.delete(id);
      this.#replicator.continueAfter(id, undefined);
      await this.#local.forget(id);
    }
  }

  /** Readers here follow conversations owned elsewhere: when the owner died, this instance takes over. */
  async #followOwners(): Promise<void> {
    const followed = await Promise.all(
      [...this.#remotes.values()].map((pending) => pending.catch(() => undefined)),
    ).then((all) =>
      all.filter((remote): remote is RemoteConversation => remote !== undefined && remote.subscribers > 0),
    );
    if (followed.length === 0) return;
    const owners = await this.#registry.owners(followed.map((remote) => remote.id));
    const me = this.parts.instanceId;
    await Promise.all(
      followed.map(async (remote, i) => {
        // A live owner, or this instance holding it already. (Named here but not held: a takeover that failed, again.)
        if ((owners[i] !== undefined && owners[i] !== me) || this.#owned.has(remote.id)) return;
        if ((await this.#acquire(remote.id)) === this.parts.instanceId)
          await this.#openOwned(remote.id, remote.principal);
      }),
    );
  }

  /** Turns marked running whose owner is not live (one instance at a time looks): resumed here. */
  async #sweepRunning(): Promise<void> {
    const { redis, scale, storage, instanceId } = this.parts;
    if (!storage.catalog.listRunning) return;
    const lock = await redis.set(`${scale.prefix}:sweep`, instanceId, "PX", scale.leaseMs, "NX");
    if (lock !== "OK") return;
    const running = await storage.catalog.listRunning(SWEEP_LIMIT);
    const owners = await this.#registry.owners(running.map((record) => record.id));
    for (const [i, record] of running.entries()) {
      if ((owners[i] !== undefined && owners[i] !== instanceId) || this.#owned.has(record.id)) continue;
      if ((await this.#acquire(record.id)) === instanceId)
        await this.#openOwned(record.id, { id: record.owner }).catch((error: unknown) => this.#log(error));
    }
  }

  #remote(record: ConversationRecord, principal: Principal): Promise<RemoteConversation> {
    let pending = this.#remotes.get(record.id);
    if (!pending) {
      pending = this.#openRemote(record, principal);
      this.#remotes.set(record.id, pending);
      pending.catch(() => this.#remotes.delete(record.id));
    }
    return pending;
  }

  async #openRemote(record: ConversationRecord, principal: Principal): Promise<RemoteConversation> {
    const { redis, options, tail } = this.parts;
    const key = this.#keys(record.id).events;
    const entries = (
      (await redis.xrevrange(key, "+", "-", "COUNT", options.replayEvents)) as Array<[string, string[]]>
    ).reverse();
    const log = remoteLog(entries, record.eventIdsReserved, {
      maxEvents: options.replayEvents,
      maxChars: options.replayChars,
      maxHeldChars: options.readerLagChars,
    });
    await tail.watch(record.id, key, log);
    return new RemoteConversation(record, principal, log, this);
  }

  async #dropIdleRemotes(): Promise<void> {
    const cutoff = Date.now() - this.parts.options.idleTimeoutMs;
    for (const [id, pending] of [...this.#remotes]) {
      const remote = await pending.catch(() => undefined);
      if (!remote || (remote.subscribers === 0 && remote.lastActive <= cutoff)) await this.#dropRemote(id);
    }
  }

  async #dropRemote(id: string): Promise<void> {
    const pending = this.#remotes.get(id);
    if (!pending) return;
    this.#remotes.delete(id);
    const remote = await pending.catch(() => undefined);
    this.parts.tail.unwatch(id);
    remote?.log.close();
  }

  #keys(id: string) {
    return conversationKeys(this.parts.scale.prefix, id);
  }

  #log(error: unknown): void {
    this.parts.options.log("[glove-server] scale ownership", error);
  }
}
