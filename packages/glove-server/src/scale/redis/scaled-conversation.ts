import type { BranchInfo, StoreAdapter, WireSlot } from "glove-core";
import { branchPointsOf } from "../../conversations/branch-view.js";
import type { AbortOutcome, ConversationHandle, SlotAnswer } from "../../conversations/conversation-handle.js";
import { EventLog } from "../../conversations/event-log.js";
import { conflict, HttpError, notFound, quoted } from "../../errors.js";
import type { ConversationRecord } from "../../storage/types.js";
import { InboxWatch } from "./inbox-watch.js";
import type { ConversationKeys } from "./keys.js";
import { statsOf, turnIdOf } from "./keys.js";
import { jobOptions, type ScaleShared, type TurnJobData } from "./scale-shared.js";
import { settledQuestion, waitingConflict } from "../../conversations/waiting-turns.js";
import { heldConflict } from "./held-conflict.js";
import { readBranches, startBranchTurn, switchBranchHere, type BranchContext } from "./scaled-branches.js";
import { answerStoredQuestion, storedSlots, waitingQuestions, withdrawWaiting } from "./stored-answers.js";

/** How long the remembered client message ids answer retries. */
const CLIENT_ID_TTL_S = 24 * 3600;
/** How often a turn that this instance admitted is looked for in Redis, between its copy of the stream's events. */
const TURN_POLL_MS = 2000;
/** A claimed turn with no job after this long was lost (its instance died between claim and queueing). */
const LOST_CLAIM_MS = 10_000;

type Reply = [Error | null, unknown][] | null;

/**
 * A conversation as one instance of the scale mode serves it: its events followed from the shared
 * stream into a local log (which this instance's SSE readers share), snapshots read from Redis
 * state + PostgreSQL, turns queued for whichever instance takes them, slot answers and aborts
 * forwarded to the instance running the turn. No Glove lives here.
 */
export class ScaledConversation implements ConversationHandle {
  subscribers = 0;
  lastActive = Date.now();

  private constructor(
    readonly record: ConversationRecord,
    readonly log: EventLog,
    private readonly store: StoreAdapter,
    private readonly keys: ConversationKeys,
    private readonly shared: ScaleShared,
  ) {}

  #inbox: InboxWatch | undefined;

  get id(): string {
    return this.record.id;
  }

  static async open(record: ConversationRecord, shared: ScaleShared): Promise<ScaledConversation> {
    const keys = shared.keys(record.id);
    const { replayEvents, replayChars, readerLagChars } = shared.options;
    const reply = (await shared.redis
      .multi()
      .xrevrange(keys.events, "+", "-", "COUNT", replayEvents)
      .hget(keys.state, "last")
      .get(keys.seq)
      .exec()) as Reply;
    const entries = ((reply?.[0]?.[1] ?? []) as Array<[string, string[]]>).reverse();
    // The last id handed out; before any event, the counter a worker set up (or the catalog's).
    const known = (reply?.[1]?.[1] ?? reply?.[2]?.[1] ?? null) as string | null;
    const last = known === null ? record.eventIdsReserved : Number(known);
    const first = entries[0] ? Number(entries[0][0].split("-")[0]) : last + 1;
    const log = new EventLog(first - 1, {
      maxEvents: replayEvents,
      maxChars: replayChars,
      maxHeldChars: readerLagChars,
    });
    for (const [entryId, fields] of entries)
      log.appendNumbered(Number(entryId.split("-")[0]), field(fields, "t") ?? "message", field(fields, "d") ?? "null");
    const store = await shared.storage.store(record.id);
    const conversation = new ScaledConversation(record, log, store, keys, shared);
    conversation.#inbox = await InboxWatch.start(record.id, store, keys, shared, () => conversation.subscribers > 0);
    void shared.tail.watch(record.id, keys.events, log); // catches up on its own; snapshots wait for it (catchUp)
    return conversation;
  }

  async snapshot(): Promise<{ data: Record<string, unknown>; lastId: number }> {
    const { redis } = this.shared;
    const keys = this.keys;
    const reply = (await redis
      .multi()
      .hgetall(keys.state)
      .get(keys.streaming)
      .hgetall(keys.slots)
      .hgetall(keys.slotStatus)
      .get(keys.turn)
      .exec()) as Reply;
    const state = (reply?.[0]?.[1] ?? {}) as Record<string, string>;
    const lastId = state.last !== undefined ? Number(state.last) : this.log.baseId;
    const slotJson = (reply?.[2]?.[1] ?? {}) as Record<string, string>;
    const statuses = (reply?.[3]?.[1] ?? {}) as Record<string, string>;
    const live = Object.entries(slotJson).map(([id, json]) => ({
      ...(JSON.parse(json) as WireSlot),
      status: (statuses[id] ?? "pending") as WireSlot["status"],
    }));
    const turnId = turnIdOf((reply?.[4]?.[1] ?? null) as string | null);
    const [messages, tasks, inbox] = await Promise.all([
      this.store.getMessages(),
      this.store.getTasks?.(),
      this.store.getInboxItems?.(),
    ]);
    const branches = await branchPointsOf(this.store, messages);
    // No turn runs: questions its last turn left waiting (ended "waiting") are in the store.
    const slots = turnId === null ? [...live, ...(await storedSlots(this.store, messages))] : live;
    // Messages stored but not yet announced by an event at or before lastId come with a later event.
    const announced =
      state.messageCount !== undefined ? Math.min(Number(state.messageCount), messages.length) : messages.length;
    await this.catchUp(lastId);
    const data = {
      id: this.id,
      agent: this.record.agent,
      title: this.record.title,
      messages: messages.slice(0, announced),
      branches: announced === messages.length ? branches : [],
      slots,
      tasks: tasks ?? [],
      inbox: inbox ?? [],
      busy: turnId !== null,
      turnId,
      streamingText: (reply?.[1]?.[1] ?? "") as string,
      stats: statsOf(state, this.record.stats),
      lastEventId: lastId,
    };
    return { data, lastId };
  }

  /** Waits (bounded) until the local log holds the events up to `after` that the stream has. */
  async catchUp(after: number): Promise<void> {
    if (this.log.lastId >= after) return;
    const last = Number((await this.shared.redis.hget(this.keys.state, "last")) ?? 0);
    const target = Math.min(after, last);
    const deadline = Date.now() + 3000;
    while (this.log.lastId < target && !this.log.closed && Date.now() < deadline) {
      await Promise.race([this.log.waitAfter(this.log.lastId), new Promise((resolve) => setTimeout(resolve, 100))]);
    }
  }

  async startTurn(text: string, clientMessageId: string | undefined): Promise<{ turnId: string; duplicate: boolean }> {
    const { queue, catalog } = { ...this.shared, catalog: this.shared.storage.catalog };
    const record = this.record;
    if (clientMessageId !== undefined && record.lastClientMessageId === clientMessageId && record.lastTurnId) {
      return this.#duplicate(record.lastTurnId, text, clientMessageId);
    }
    const turnId = crypto.randomUUID();
    const [outcome, value, noWaits] = await this.#claim(turnId, clientMessageId);
    if (outcome === "dup") return this.#duplicate(value, text, clientMessageId);
    if (outcome === "busy") throw await heldConflict(this.shared, this.keys);
    // A turn left waiting for a person still holds the conversation, as it would on its worker.
    // The store is asked unless the last turn ended "done" (Redis kept that mark: nothing can wait).
    const waiting = noWaits
      ? []
      : await waitingQuestions(this.store).catch(async (error: unknown) => {
          await this.#unclaim(value, turnId, clientMessageId);
          throw error;
        });
    if (waiting.length > 0) {
      await this.#unclaim(value, turnId, clientMessageId);
      throw waitingConflict(waiting);
    }
    // Marked running in the same write, as the single process marks a turn that starts at once (the
    // claim above says none runs): its worker finds the mark in the record it reads and skips its own.
    const changes = {
      lastClientMessageId: clientMessageId ?? null,
      lastTurnId: turnId,
      updatedAt: new Date().toISOString(),
      title: record.title ?? text.trim().slice(0, 80),
      runningTurnId: turnId,
    };
    Object.assign(record, changes);
    await catalog
      .update(record.id, changes)
      .catch((error: unknown) => this.shared.options.log("[glove-server] catalog update failed", error));
    await queue.add("turn", this.#job(turnId, text, clientMessageId), jobOptions(turnId));
    return { turnId, duplicate: false };
  }

  /**
   * Resolves once the turn no longer holds the conversation, wherever it ran. Redis is the truth
   * (this instance may stop following the stream meanwhile), asked every TURN_POLL_MS and as soon
   * as a `turn_end` (the emit script frees the conversation in the same step) reaches the local
   * log, so the quota is freed at once. Other events do not ask: a turn's 16 events used to cost
   * 16 GETs. A Redis error frees it too: never stuck.
   */
  async turnSettled(turnId: string): Promise<void> {
    for (;;) {
      // Taken before asking: a turn_end that arrives while the GET is under way wakes the next one.
      let seen = this.log.lastId;
      const holder = await this.shared.redis.get(this.keys.turn).catch(() => null);
      if (turnIdOf(holder) !== turnId) return;
      let timedOut = false;
      const poll = new Promise<void>((resolve) =>
        setTimeout(() => resolve(void (timedOut = true)), TURN_POLL_MS).unref(),
      );
      while (!timedOut && !this.log.closed) {
        await Promise.race([this.log.waitAfter(seen), poll]);
        if (this.log.hasAfter(seen, "turn_end") !== false) break; // a gap may hide a turn_end: ask
        seen = this.log.lastId;
      }
      if (!timedOut && this.log.closed) await poll;
    }
  }

  /**
   * A slot a running turn shows is answered by its worker (forwarded over the control channel); a
   * stored question whose turn ended "waiting" is recorded here and resumes the turn as a job.
   */
  async answerSlot(
    slotId: string,
    answer: SlotAnswer,
  ): Promise<{ slotId: string; status: "resolved" | "rejected"; turnId?: string }> {
    const { redis, control } = this.shared;
    const [json, status] = await Promise.all([
      redis.hget(this.keys.slots, slotId),
      redis.hget(this.keys.slotStatus, slotId),
    ]);
    const slot = json === null ? undefined : (JSON.parse(json) as WireSlot);
    if (!slot)
      return answerStoredQuestion(
        {
          shared: this.shared,
          record: this.record,
          store: this.store,
          claim: (turnId) => this.#claimForAnswer(turnId),
        },
        slotId,
        answer,
      );
    if (slot.mode !== "wait") throw notFound(`No slot ${quoted(slotId)} waits for an answer in this conversation.`);
    if (status !== "pending")
      throw conflict("GLOVE_SLOT_SETTLED", `Slot ${slotId} is already ${status ?? "closed"}; the first answer won.`);
    const request =
      "resolve" in answer
        ? { op: "slot" as const, slotId, resolve: answer.resolve }
        : { op: "slot" as const, slotId, reject: answer.reject };
    const reply = await control.request(this.keys.control, this.keys.run, request, 5000);
    if (!reply) {
      throw conflict(
        "GLOVE_SLOT_SETTLED",
        `Slot ${slotId} closed: the instance running its turn stopped; the turn continues elsewhere (when it only waited for this answer it ends as "waiting": send the answer again after its turn_end).`,
      );
    }
    if (!reply.ok)
      throw new HttpError(reply.status, reply.code, reply.message, reply.issues ? { issues: reply.issues } : undefined);
    return reply.body as { slotId: string; status: "resolved" | "rejected" };
  }

  settledQuestion(slotId: string): ReturnType<typeof settledQuestion> {
    return settledQuestion(this.store, slotId);
  }

  async abortTurn(): Promise<AbortOutcome> {
    const { redis, control } = this.shared;
    const turnId = turnIdOf(await redis.get(this.keys.turn));
    if (!turnId) return this.#withdraw();
    const reply = await control.request(this.keys.control, this.keys.run, { op: "abort" }, 3000);
    if (reply?.ok) return reply.body as unknown as AbortOutcome;
    // Queued, or between workers: whoever takes the turn ends it as aborted.
    await redis.set(this.keys.abort, turnId, "EX", 3600);
    return { aborted: true, turnId, status: "aborting" };
  }

  regenerate(): Promise<{ turnId: string }> {
    return startBranchTurn(this.#branchContext(), { kind: "regenerate" });
  }

  editMessage(messageId: string, text: string): Promise<{ turnId: string }> {
    return startBranchTurn(this.#branchContext(), { kind: "edit", messageId, text });
  }

  async branches(): Promise<BranchInfo> {
    return readBranches(this.store);
  }

  switchBranch(messageId: string): Promise<BranchInfo> {
    return switchBranchHere(this.#branchContext(), messageId);
  }

  #branchContext(): BranchContext {
    return {
      shared: this.shared,
      record: this.record,
      store: this.store,
      claim: (turnId) => this.#claimForAnswer(turnId),
      held: () => heldConflict(this.shared, this.keys),
      job: (turnId, text) => this.#job(turnId, text, undefined),
    };
  }

  /** Aborts a turn that waits in the store for people: its questions are withdrawn, its calls end as aborted. */
  async #withdraw(): Promise<AbortOutcome> {
    const claimId = crypto.randomUUID();
    const release = await this.#claimForAnswer(claimId);
    if (!release) return this.abortTurn(); // a turn started meanwhile: abort that one
    try {
      const withdrawn = await withdrawWaiting(this.shared, this.record, this.store);
      return withdrawn.length > 0
        ? { aborted: true, status: "aborted" }
        : { aborted: false, message: "No turn is running." };
    } finally {
      await release();
    }
  }

  /** Gives back a claim taken for a message that could not start (the client may send it again). */
  async #unclaim(holder: string, turnId: string, clientMessageId: string | undefined): Promise<void> {
    await this.shared.redis.gloveDeleteIf(this.keys.turn, holder);
    if (clientMessageId !== undefined)
      await this.shared.redis.gloveDeleteIf(this.keys.clientMessage(clientMessageId), turnId);
  }

  /** Stops following the stream and ends this instance's readers. */
  async close(): Promise<void> {
    this.#inbox?.stop();
    this.shared.tail.unwatch(this.id);
    this.log.close();
    const closable = this.store as { close?: () => unknown };
    if (typeof closable.close === "function") await Promise.resolve(closable.close()).catch(() => undefined);
  }

  /**
   * A retried message answers the turn it started. The instance that took it first may have died
   * before queueing it: while that turn still holds the conversation, queue it again (a job id
   * already queued or running is left as it is).
   */
  async #duplicate(
    turnId: string,
    text: string,
    clientMessageId: string | undefined,
  ): Promise<{ turnId: string; duplicate: boolean }> {
    if (turnIdOf(await this.shared.redis.get(this.keys.turn)) === turnId) {
      await this.shared.queue.add("turn", this.#job(turnId, text, clientMessageId), jobOptions(turnId));
    }
    return { turnId, duplicate: true };
  }

  #job(turnId: string, text: string, clientMessageId: string | undefined): TurnJobData {
    const { id, owner, agent } = this.record;
    return {
      conversationId: id,
      turnId,
      text,
      owner,
      agent,
      ...(clientMessageId !== undefined ? { clientMessageId } : {}),
    };
  }

  /**
   * Takes the conversation's turn key for `turnId` (a claim whose instance died is released
   * first): `ok` with the key's value, `dup` with the client message's turn, or `busy`.
   */
  /** [outcome, the holder (ours when "ok"), whether the last turn ended "done" so nothing can wait]. */
  async #claim(turnId: string, clientMessageId: string | undefined): Promise<[string, string, boolean]> {
    const clientKey = this.keys.clientMessage(clientMessageId ?? "");
    const claim = async (): Promise<[string, string, boolean]> => {
      const now = Date.now();
      const [outcome, value, noWaits] = await this.shared.redis.gloveClaimTurn(
        this.keys.turn,
        clientKey,
        this.keys.state,
        turnId,
        clientMessageId === undefined ? "0" : "1",
        CLIENT_ID_TTL_S,
        now,
      );
      return [outcome, outcome === "ok" ? `${turnId}|${now}` : value, noWaits === 1];
    };
    const first = await claim();
    return first[0] === "busy" && (await this.#lostClaim(first[1])) ? claim() : first;
  }

  /** The claim of a turn an answer resumes, and how to give it back; undefined when a turn holds the conversation. */
  async #claimForAnswer(turnId: string): Promise<(() => Promise<unknown>) | undefined> {
    const [outcome, holder] = await this.#claim(turnId, undefined);
    return outcome === "ok" ? () => this.shared.redis.gloveDeleteIf(this.keys.turn, holder) : undefined;
  }

  /** A claim whose instance died before queueing its job: released so the conversation is not stuck. */
  async #lostClaim(holder: string): Promise<boolean> {
    const [turnId, at] = holder.split("|");
    if (!turnId || Date.now() - Number(at) < LOST_CLAIM_MS) return false;
    const job = await this.shared.queue.getJob(turnId);
    if (job && !(await job.isCompleted()) && !(await job.isFailed())) return false;
    return (await this.shared.redis.gloveDeleteIf(this.keys.turn, holder)) === 1;
  }
}

function field(fields: string[], name: string): string | undefined {
  for (let i = 0; i + 1 < fields.length; i += 2) if (fields[i] === name) return fields[i + 1];
  return undefined;
}
