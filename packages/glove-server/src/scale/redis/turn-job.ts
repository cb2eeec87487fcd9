import type { Job } from "bullmq";
import { DelayedError } from "./drivers.js";
import {
  AbortError,
  GloveError,
  repairForInterruptedTools,
  SlotBoard,
  type IGloveRunnable,
  type Message,
  type StoreAdapter,
  type SubscriberAdapter,
} from "glove-core";
import { branchesChangedEvent } from "../../conversations/branch-view.js";
import { ObservedStore } from "../../conversations/observed-store.js";
import { TurnTracing } from "../../conversations/turn-tracing.js";
import { applySlotAnswer } from "../../conversations/slot-answer.js";
import { HttpError } from "../../errors.js";
import { TurnFencedError } from "../../storage/turn-fenced-error.js";
import type { ControlReply, ControlRequest } from "./control-channel.js";
import { inboxDigest } from "./inbox-watch.js";
import { statsOf } from "./keys.js";
import { PeopleWaits } from "./people-waits.js";
import { driveTurn, TURN_PLACE_FIELDS, turnPlace } from "./turn-drive.js";
import { ID_RESERVE, type ScaleShared, type TurnJobData } from "./scale-shared.js";
import { TurnEmitter } from "./turn-emitter.js";

/** How a turn ended; "waiting": it only waits for people and left this worker (an answer resumes it). */
type TurnStatus = "done" | "aborted" | "error" | "interrupted" | "waiting";
/** Why a turn stops here: a client's abort, this instance closing, another worker holding it, or a wait gone idle. */
type StopReason = "aborted" | "handover" | "fenced" | "idle";

/** A turn running on this instance. */
interface RunningTurn {
  controller: AbortController;
  stopReason?: StopReason;
  done: Promise<TurnStatus | "handed-over">;
  /**
   * Set while its Glove runs: leaves the turn without aborting it (its stored questions stay
   * pending) when it only waits for people; resolves whether it did.
   */
  leave?: (reason: StopReason) => Promise<boolean>;
  /** The check `leave` runs (slot answers meanwhile get 409), and whether the turn left. */
  leaving?: Promise<boolean>;
  left?: boolean;
}

/**
 * Runs queued turns on this instance (the BullMQ processor). A turn runs where its job is; when its
 * worker dies, BullMQ's stalled-job check gives the job to another instance, which continues the
 * turn from what PostgreSQL holds (`Glove.continueTurn`): the stored answer is never asked for
 * twice, in-flight calls get interrupted results unless their tool may be re-run. A turn that only
 * waits for people (its questions stored) leaves its worker as `turn_end` "waiting" — when the
 * instance closes, when it stayed idle for `idleTimeoutMs`, or when it is taken over — and an
 * answer recorded by any instance resumes it as an "answer" job.
 */
export class TurnWorker {
  readonly #running = new Map<string, RunningTurn>();

  constructor(private readonly shared: ScaleShared) {}

  get size(): number {
    return this.#running.size;
  }

  /** The BullMQ processor. */
  async process(job: Job<TurnJobData>, token: string | undefined): Promise<string> {
    const data = job.data;
    const { redis } = this.shared;
    const keys = this.shared.keys(data.conversationId);
    // Names this instance: slot answers and aborts for the turn are sent here (control-channel.ts).
    const fence = this.shared.control.fenceFor(data.turnId);
    const attempt = await redis.gloveBeginRun(
      keys.turn,
      keys.run,
      keys.attempts,
      data.turnId,
      fence,
      this.shared.scale.turnLockMs,
    );
    if (attempt === 0) return "stale"; // ended already (its worker died before acking)
    const turn: RunningTurn = { controller: new AbortController(), done: Promise.resolve("done") };
    const lastTry = job.attemptsMade + 1 >= (job.opts.attempts ?? 1);
    turn.done = this.#run(data, fence, attempt, turn).catch(async (error: unknown) => {
      // Storage or Redis failed outside the loop (e.g. PostgreSQL restarting): BullMQ tries again;
      // the last try ends the turn so the conversation is not left busy.
      this.shared.options.log(`[glove-server] turn ${data.turnId} could not run`, error);
      if (!lastTry) throw error;
      await this.#failTurn(data, fence);
      return "error" as const;
    });
    this.#running.set(data.conversationId, turn);
    let outcome: TurnStatus | "handed-over";
    try {
      outcome = await turn.done;
    } finally {
      this.#running.delete(data.conversationId);
    }
    if (outcome === "handed-over" && token !== undefined) {
      // Stopped without ending (closing, or fenced). Back to the queue at once so an instance
      // continues it — unless another worker already holds the job (then BullMQ refuses: fine).
      // A lock that only lapsed (an event loop stalled past turnLockMs) must not end the job here.
      const requeued = await job.moveToDelayed(Date.now() + 1, token).then(
        () => true,
        () => false,
      );
      if (requeued) throw new DelayedError();
      return "taken-over";
    }
    return outcome;
  }

  /**
   * Stops running turns without ending them: other instances continue them. A turn that only
   * waits for people ends as "waiting" instead (its questions stay in the store; an answer resumes it).
   */
  async handOverAll(): Promise<void> {
    const turns = [...this.#running.values()];
    await Promise.all(
      turns.map((turn) =>
        this.#stop(turn, "handover", "This server instance is shutting down; another instance continues the turn."),
      ),
    );
    await Promise.all(turns.map((turn) => turn.done.catch(() => undefined)));
  }

  /** Leaves the turn when it only waits for people, else aborts it (an idle turn that does not only wait goes on). */
  async #stop(turn: RunningTurn, reason: StopReason, message: string): Promise<void> {
    if (reason !== "aborted" && turn.leave && (await turn.leave(reason))) return;
    if (reason === "idle" || turn.left) return;
    turn.stopReason ??= reason;
    turn.controller.abort(new AbortError(message));
  }

  async #run(
    data: TurnJobData,
    fence: string,
    attempt: number,
    turn: RunningTurn,
  ): Promise<TurnStatus | "handed-over"> {
    const { redis, options, scale, storage, agents, control } = this.shared;
    const keys = this.shared.keys(data.conversationId);
    // The commit point is fenced first, right after the run lock changed hands: from here on,
    // appends of any earlier worker of this conversation (one that lost its lock and is noticing
    // it now) are refused inside their own transaction, and everything they stored before is in
    // the history read below. Taken with the catalog read: no round trip in between.
    const fenceStore = storage.turnFence;
    const { record, writer } = fenceStore?.takeWithRecord
      ? await fenceStore.takeWithRecord(data.conversationId)
      : await Promise.all([storage.catalog.get(data.conversationId), fenceStore?.take(data.conversationId)]).then(
          ([record, writer]) => ({ record, writer }),
        );
    if (!record) {
      await redis.gloveDeleteIf(keys.turn, (await redis.get(keys.turn)) ?? "");
      return "interrupted"; // deleted meanwhile
    }
    // Set as soon as Redis says another worker holds the run: from then on this worker stores
    // nothing (the new worker may not have taken the PostgreSQL fence yet; an "aborted" result
    // written in between would be read by it as the call's answer).
    let lostRun = false;
    const fenced = () => {
      lostRun = true;
      void this.#stop(turn, "fenced", "Another instance took this turn over.");
    };
    const inner: StoreAdapter =
      fenceStore && writer !== undefined
        ? await fenceStore.store(record.id, writer, () => !lostRun)
        : await storage.store(record.id);
    // The counter exists before the catalog moves on, so a reader that sees the new catalog value
    // also finds the counter (and starts its copy of the stream from it, not from the catalog).
    // The stats come along: from here on only this worker's events change them (the run lock is ours).
    // So does where an earlier worker left the turn (driveTurn). The history's length is read in the
    // same round trip (it is already fenced); its messages only when the turn continues one that
    // was started (a fresh turn's Glove reads what it needs: no whole-history read per turn).
    // Plain commands, not a MULTI: they keep their order on the connection and join the other
    // commands of this tick in one write (a MULTI is a write of its own), and nothing here needs
    // them atomic.
    let historyRead: Promise<Message[]> | undefined;
    const history = () => (historyRead ??= inner.getMessages());
    const [, seqValue, state, count] = await Promise.all([
      redis.set(keys.seq, String(record.eventIdsReserved), "NX"),
      redis.get(keys.seq),
      redis.hmget(keys.state, "turns", "tokensIn", "tokensOut", ...TURN_PLACE_FIELDS),
      inner.messageCount ? inner.messageCount() : history().then((messages) => messages.length),
    ]);
    const [turns, tokensIn, tokensOut] = state;
    const seqNow = Number(seqValue ?? 0);
    if (seqNow + ID_RESERVE / 2 > record.eventIdsReserved) {
      await storage.catalog.update(record.id, {
        eventIdsReserved: Math.max(seqNow, record.eventIdsReserved) + ID_RESERVE,
      });
    }
    const emitter = new TurnEmitter(
      redis,
      keys,
      fence,
      record.eventIdsReserved,
      scale,
      fenced,
      (error) => options.log("[glove-server] could not write an event to Redis", error),
      (id, type, json) => this.shared.tail.deliverLocal(data.conversationId, id, type, json),
    );
    const observed = new ObservedStore(inner, {
      onMessagesAppended: (messages, startIndex) =>
        void emitter.emit("messages_appended", { messages, startIndex }, [String(startIndex + messages.length)]),
      onTasksChanged: () => void inner.getTasks?.().then((tasks) => emitter.emit("tasks", { tasks })),
      onInboxChanged: () =>
        void inner.getInboxItems?.().then((items) => emitter.emit("inbox", { items }, [inboxDigest(items)])),
      onBranchesChanged: async (keep, messages) => {
        // The fork landed: a worker taking the turn over continues it instead of forking again.
        await redis.hset(keys.state, "turnBase", String(keep + messages.length), "branched", data.turnId);
        void emitter.emit("branches_changed", await branchesChangedEvent(inner, keep, messages), [
          String(keep + messages.length),
        ]);
      },
    });
    observed.setMessageCount(count);
    // Counting goes on from what the stream's state holds (a dead worker's calls included).
    emitter.stats = statsOf({ turns, tokensIn, tokensOut }, record.stats);
    const people = new PeopleWaits();
    // The instance running the turn records its trace, continuing what a replaced worker saved.
    const traces = storage.inspect?.traces;
    const tracing = new TurnTracing(
      traces,
      record.id,
      () => glove?.model.name,
      options.log,
      attempt > 1 ? await traces?.get(record.id, data.turnId) : undefined,
    );
    // Not waited for before the turn starts (one round trip less to turn_start); the turn's last
    // catalog write waits for it, so the two cannot land in the wrong order. A message's turn was
    // marked when it was admitted (scaled-conversation.ts): no second write.
    const marked =
      record.runningTurnId === data.turnId
        ? Promise.resolve()
        : storage.catalog
            .update(record.id, { runningTurnId: data.turnId })
            .catch((failure: unknown) => options.log("[glove-server] catalog update failed", failure));
    const renew = setInterval(
      () => {
        redis
          .gloveRenew(keys.run, fence, scale.turnLockMs)
          .then((held) => held === 0 && fenced())
          .catch(() => undefined); // Redis away: the lock may lapse; the emit script fences us then
        // A turn that has only waited for people for idleTimeoutMs leaves this worker.
        if (Date.now() - people.lastActive >= options.idleTimeoutMs) void this.#stop(turn, "idle", "");
      },
      Math.max(50, Math.floor(Math.min(scale.turnLockMs, options.idleTimeoutMs) / 3)),
    );

    let glove: IGloveRunnable | undefined;
    const slots = new SlotBoard({
      pushed: (slot) => void emitter.emit("slot_push", { slot }, [slot.id, JSON.stringify(slot), slot.status]),
      settled: (slotId, status) => void emitter.emit("slot_settled", { slotId, status }, [slotId, "", status]),
    });
    const subscriber: SubscriberAdapter = {
      record: (...event) => {
        tracing.observe(data.turnId, ...event);
        people.observe(...event);
        emitter.record(event[0], event[1]);
      },
    };
    let unsubscribeDisplay = () => undefined as void;
    let unobserveCalls = () => undefined as void;
    let stopServing = async () => undefined as void;
    let status: TurnStatus = "done";
    let error: { code: string; message: string } | undefined;
    try {
      glove = await agents.open({
        conversationId: record.id,
        agent: record.agent,
        principal: { id: record.owner },
        store: observed.store,
      });
      glove.addSubscriber(subscriber);
      unobserveCalls = tracing.attach(glove, () => data.turnId);
      const display = glove.displayManager;
      const sync = (stack: Parameters<SlotBoard["sync"]>[0]) =>
        slots.sync(stack, (id) => display.resolverStore.has(id));
      unsubscribeDisplay = display.subscribe(sync);
      stopServing = await control.serve(keys.control, (request) =>
        this.#control(request, slots, glove!, turn, data.turnId),
      );
      const running = glove;
      const left = new Promise<"waiting">((resolve) => {
        turn.leave = (reason) =>
          this.#leave(
            turn,
            reason,
            () => people.only(running, slots),
            () => resolve("waiting"),
          );
      });
      const abort = () => void this.#stop(turn, "aborted", "A client aborted the turn.");
      const work = driveTurn(this.shared, glove, {
        data,
        attempt,
        count,
        history,
        place: turnPlace(state.slice(3)),
        store: observed.store,
        emitter,
        people,
        signal: turn.controller.signal,
        abort,
      });
      work.then(
        () => (turn.leave = undefined),
        () => (turn.leave = undefined),
      );
      status = await Promise.race([work, left]);
    } catch (caught) {
      if (
        TurnFencedError.isInstance(caught) ||
        TurnFencedError.isInstance((caught as { cause?: unknown } | undefined)?.cause)
      ) {
        turn.stopReason ??= "fenced";
        turn.controller.abort(new AbortError("Another instance took this turn over."));
      }
      if (turn.controller.signal.aborted || AbortError.isInstance(caught)) {
        status = turn.stopReason === "aborted" ? "aborted" : "interrupted";
      } else {
        status = "error";
        error = this.#describe(caught, record.id);
      }
    } finally {
      unsubscribeDisplay();
      unobserveCalls();
      if (glove) glove.removeSubscriber(subscriber);
      await stopServing();
    }
    // A turn left waiting keeps its call running nowhere: nothing is answered or taken down, so
    // its stored questions stay pending (the request stays unsettled here and is dropped).
    const waiting = status === "waiting";
    const handedOver = turn.stopReason === "fenced" || emitter.fenced || (turn.stopReason === "handover" && !waiting);
    // The run lock is renewed until turn_end is out: its script refuses a worker whose lock lapsed
    // (a stall longer than turnLockMs while the turn ended), and a turn_end refused that way must
    // not complete the job with the conversation still busy — another worker ends the turn.
    try {
      if (!handedOver) {
        if (status !== "done" && !waiting) await this.#answerLeftoverCalls(observed.store);
        if (!waiting)
          for (const slot of slots.list()) if (slot.status === "pending") glove?.displayManager.removeSlot(slot.id);
        await tracing.end(data.turnId, status, error?.code);
        // Before turn_end: a listing read after it shows how the turn ended (one update, as in-process).
        const ended = {
          runningTurnId: null,
          lastTurnStatus: status,
          stats: emitter.stats,
          updatedAt: new Date().toISOString(),
        };
        await marked;
        await storage.catalog
          .update(record.id, ended)
          .catch((failure: unknown) => options.log("[glove-server] catalog update failed", failure));
        const ending = error ? { turnId: data.turnId, status, error } : { turnId: data.turnId, status };
        // The turn's abort flag and attempt count go with turn_end, in its script (a refused one leaves them to the next worker).
        await emitter.end(ending).catch(() => undefined);
      }
    } finally {
      clearInterval(renew);
    }
    const lost = handedOver || emitter.fenced;
    await tracing.close();
    await emitter.flush();
    agents.release(record.agent, record.id);
    const closable = inner as { close?: () => unknown };
    if (typeof closable.close === "function") await Promise.resolve(closable.close()).catch(() => undefined);
    return lost ? "handed-over" : status;
  }

  /**
   * Leaves `turn` when it only waits for people: `resolveLeft` ends its run as "waiting" without
   * aborting the request (aborting would cancel the stored questions). One check at a time.
   */
  #leave(
    turn: RunningTurn,
    reason: StopReason,
    onlyWaits: () => Promise<boolean>,
    resolveLeft: () => void,
  ): Promise<boolean> {
    if (turn.left) return Promise.resolve(true);
    if (turn.controller.signal.aborted) return Promise.resolve(false);
    turn.leaving ??= (async () => {
      const waits = await onlyWaits().catch(() => false);
      if (!waits || turn.controller.signal.aborted || !turn.leave) return false;
      turn.left = true;
      turn.stopReason ??= reason;
      resolveLeft();
      return true;
    })().finally(() => (turn.leaving = undefined));
    return turn.leaving;
  }

  /** Ends a turn that could not run at all: `turn_end` with an error, the conversation free again. */
  async #failTurn(data: TurnJobData, fence: string): Promise<void> {
    const { redis, scale, options } = this.shared;
    const keys = this.shared.keys(data.conversationId);
    const emitter = new TurnEmitter(
      redis,
      keys,
      fence,
      0,
      scale,
      () => undefined,
      (error) => options.log("[glove-server] could not write an event to Redis", error),
    );
    const error = {
      code: "GLOVE_TURN_FAILED",
      message: "The turn could not run (storage unavailable); the server logged the error. Send the message again.",
    };
    await emitter
      .emit("turn_end", { turnId: data.turnId, status: "error", error }, [data.turnId])
      .catch(() => undefined);
    // Its admission marked it running. Best effort and not waited for: storage may be what failed.
    void this.shared.storage.catalog
      .update(data.conversationId, { runningTurnId: null, lastTurnStatus: "error" })
      .catch(() => undefined);
  }

  /** An abort before the loop could answer its calls (e.g. while taken over): every call gets a result. */
  async #answerLeftoverCalls(store: StoreAdapter): Promise<void> {
    const repair = repairForInterruptedTools(await store.getMessages(), []);
    if (repair) await store.appendMessages([repair]).catch(() => undefined);
  }

  async #control(
    request: ControlRequest,
    slots: SlotBoard,
    glove: IGloveRunnable,
    turn: RunningTurn,
    turnId: string,
  ): Promise<ControlReply> {
    if (turn.left || (turn.leaving && request.op !== "abort")) {
      // Leaving to wait in the store: its questions are answered there once turn_end went out.
      if (request.op === "abort")
        return { ok: true, body: { aborted: false, message: "No turn is running: it waits for an answer." } };
      return {
        ok: false,
        status: 409,
        code: "GLOVE_BUSY",
        message:
          "The turn is leaving this instance to wait for this answer in storage; send the answer again after its turn_end.",
      };
    }
    if (request.op === "abort") {
      turn.stopReason ??= "aborted";
      turn.controller.abort(new AbortError("A client aborted the turn."));
      const status = await Promise.race([
        turn.done,
        new Promise<undefined>((resolve) => void setTimeout(() => resolve(undefined), 2000).unref()),
      ]);
      return {
        ok: true,
        body: { aborted: true, turnId, status: status === undefined || status === "handed-over" ? "aborting" : status },
      };
    }
    if (request.op !== "slot") return { ok: false, status: 0, code: "", message: "" };
    try {
      const answer = "resolve" in request ? { resolve: request.resolve } : { reject: request.reject };
      return { ok: true, body: applySlotAnswer(slots, glove.displayManager, request.slotId, answer) };
    } catch (failure) {
      if (!HttpError.isInstance(failure)) throw failure;
      return {
        ok: false,
        status: failure.status,
        code: failure.code,
        message: failure.message,
        ...(failure.issues ? { issues: failure.issues } : {}),
      };
    }
  }

  #describe(caught: unknown, conversationId: string): { code: string; message: string } {
    if (GloveError.isInstance(caught)) return { code: caught.code, message: caught.message };
    this.shared.options.log(`[glove-server] turn failed in conversation ${conversationId}`, caught);
    return {
      code: "GLOVE_TURN_FAILED",
      message: "The turn failed; the server logged the error. Send the message again or start a new conversation.",
    };
  }
}
