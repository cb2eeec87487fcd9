import {
  branchPoints,
  repairForInterruptedTools,
  SlotBoard,
  type BranchInfo,
  type IGloveRunnable,
  type Message,
  type StoreAdapter,
  type SubscriberAdapter,
} from "glove-core";
import type { AgentSource } from "../agents/agent-source.js";
import type { ResolvedServerOptions } from "../options.js";
import type { Principal } from "../security/authenticate.js";
import type { ConversationCatalog, ConversationRecord, ConversationStats } from "../storage/types.js";
import type { TurnTraceStore } from "../storage/inspect/types.js";
import { conflict } from "../errors.js";
import { asHttp } from "./branch-refusals.js";
import { branchesChangedEvent, branching } from "./branch-view.js";
import type { AbortOutcome, ConversationHandle, SlotAnswer } from "./conversation-handle.js";
import { EventLog } from "./event-log.js";
import type { InboxPoller } from "./inbox-poller.js";
import { InboxWake } from "./inbox-wake.js";
import { ObservedStore } from "./observed-store.js";
import { SideLists } from "./side-lists.js";
import { addStats, countEvent, NO_STATS } from "./stats.js";
import { applySlotAnswer } from "./slot-answer.js";
import { TurnRunner } from "./turn-runner.js";
import { endStoredTrace } from "./stored-traces.js";
import { TurnTracing } from "./turn-tracing.js";
import {
  onlyWaitsForPeople,
  refusalToHttp,
  refuseWhileWaiting,
  RunningCalls,
  settledQuestion,
  unshownQuestions,
  withdrawWaiting,
} from "./waiting-turns.js";

/** Event ids reserved in the catalog at a time (one catalog write per block). */
const ID_BLOCK = 10_000;

export interface ConversationDeps {
  catalog: ConversationCatalog;
  agents: AgentSource;
  storeFor(conversationId: string): Promise<StoreAdapter>;
  options: ResolvedServerOptions;
  /** Where turn traces go (storage.inspect.traces); none: turns are not traced. */
  traces?: TurnTraceStore | undefined;
  /** Re-reads watched inboxes for items resolved elsewhere (one timer for every conversation). */
  inboxPoller: InboxPoller;
  /** Told of every event a conversation logs (the scale mode replicates them to other instances). */
  onEvent?: (conversationId: string, id: number, type: string, json: string) => void;
  /**
   * Set when turns cut short by a dead process are continued (the scale mode's takeover) instead
   * of ending as interrupted; `attempt` counts the turn's takeovers (shown in `turn_resumed`).
   */
  takeover?: { attempt(conversationId: string, turnId: string): Promise<number> };
  /** Told when a conversation left memory, with the last event id it handed out (the scale mode gives up its ownership). */
  onClosed?: (conversationId: string, lastEventId: number) => void;
}

/**
 * One conversation held in memory: its Glove, its event log, its slots and its running turn.
 * Built from the store when first needed and dropped when idle; everything that must survive
 * that lives in the store and the catalog.
 */
export class LiveConversation implements ConversationHandle {
  readonly log: EventLog;
  readonly slots: SlotBoard;
  readonly turns: TurnRunner;
  readonly sides: SideLists;
  /** Starts the turns that deliver inbox answers, when the agent opted in (`inbox: { wake: true }`). */
  readonly inboxWake: InboxWake;
  /** Records the running turn's timing (its TurnTrace). */
  readonly tracing: TurnTracing;
  /** Open event streams. */
  subscribers = 0;
  lastActive = Date.now();
  /** Text streamed by the current model call and not yet in a persisted message. */
  streamingText = "";
  /** Counted as events are logged, so a snapshot's stats match its lastEventId; saved at each turn's end. */
  stats: ConversationStats;
  #reserved: number;
  #reserving = false;
  #unsubscribeDisplay: () => void = () => undefined;
  /** Stops recording the model calls' requests and answers in the turn traces (the request inspector). */
  #unobserveCalls: () => void = () => undefined;
  #subscriber: SubscriberAdapter | undefined;
  readonly #calls = new RunningCalls();

  private constructor(
    readonly record: ConversationRecord,
    readonly glove: IGloveRunnable,
    readonly observed: ObservedStore,
    private readonly deps: ConversationDeps,
  ) {
    this.#reserved = record.eventIdsReserved + ID_BLOCK;
    this.stats = record.stats ?? NO_STATS;
    const { options } = deps;
    this.tracing = new TurnTracing(deps.traces, record.id, () => glove.model?.name, options.log);
    this.log = new EventLog(
      record.eventIdsReserved,
      { maxEvents: options.replayEvents, maxChars: options.replayChars, maxHeldChars: options.readerLagChars },
      deps.onEvent
        ? (id, type, json) => {
            this.#onEventId(id);
            deps.onEvent!(record.id, id, type, json);
          }
        : (id) => this.#onEventId(id),
    );
    this.slots = new SlotBoard({
      pushed: (slot) => this.log.append("slot_push", { slot }),
      settled: (slotId, status) => this.log.append("slot_settled", { slotId, status }),
    });
    // A conversation that wakes on inbox answers watches its inbox while in memory, read or not.
    const watched = () => this.subscribers > 0 || this.inboxWake.enabled;
    this.sides = new SideLists(record.id, observed.store, this.log, deps.inboxPoller, watched, () =>
      this.inboxWake.poke(),
    );
    this.turns = new TurnRunner(this, deps.catalog, options, () => {
      this.#closeLeftoverSlots();
      this.inboxWake.poke();
    });
    this.inboxWake = new InboxWake(glove, observed.store, this.turns, options.log);
  }

  get id(): string {
    return this.record.id;
  }

  get busy(): boolean {
    return this.turns.running !== undefined;
  }

  /** True when nothing depends on this conversation staying in memory. */
  get idle(): boolean {
    return !this.busy && this.subscribers === 0 && this.slots.pendingCount === 0;
  }

  /**
   * True when the conversation may hibernate (decision 0033): idle, and nothing it holds lives
   * only in memory — no slot on its board (shown, waiting or kept for snapshots) and no inbox it
   * must watch to wake on answers. Its history, branches, stored questions and stats are in the
   * store and the catalog, which is all a rebuild reads.
   */
  get hibernatable(): boolean {
    return this.idle && !this.inboxWake.enabled && this.slots.list().length === 0;
  }

  static async open(
    record: ConversationRecord,
    principal: Principal,
    deps: ConversationDeps,
  ): Promise<LiveConversation> {
    // Reserve ids first: whatever an earlier process handed out is at or below the old reservation.
    await deps.catalog.update(record.id, { eventIdsReserved: record.eventIdsReserved + ID_BLOCK });
    const inner = await deps.storeFor(record.id);
    // The store reports writes to the conversation, which exists only once the Glove is built on it.
    const ref: { conversation?: LiveConversation } = {};
    const observed = new ObservedStore(inner, {
      onMessagesAppended: (messages, startIndex) =>
        ref.conversation?.log.append("messages_appended", { messages, startIndex }),
      onTasksChanged: () => void ref.conversation?.sides.refreshTasks(),
      onInboxChanged: () => void ref.conversation?.sides.refreshInbox(),
      onBranchesChanged: (keep, messages) => ref.conversation?.branchesChanged(keep, messages),
    });
    const history = await inner.getMessages();
    observed.setMessageCount(history.length);
    const glove = await deps.agents.open({
      conversationId: record.id,
      agent: record.agent,
      principal,
      store: observed.store,
    });
    const conversation = new LiveConversation(record, glove, observed, deps);
    ref.conversation = conversation;
    // Attached first: a turn taken over starts in the recovery, and its events must reach the log.
    conversation.#attach();
    await conversation.#recoverInterruptedTurn(history);
    await conversation.sides.start();
    conversation.inboxWake.poke();
    return conversation;
  }

  async startTurn(text: string, clientMessageId: string | undefined): Promise<{ turnId: string; duplicate: boolean }> {
    // A question waiting holds the conversation, in memory or stored; a retried message still
    // answers the turn it started.
    if (this.turns.turnFor(clientMessageId) === undefined) await refuseWhileWaiting(this.glove, this.slots, this.busy);
    return this.turns.start(text, clientMessageId);
  }

  settledQuestion(slotId: string): ReturnType<typeof settledQuestion> {
    return settledQuestion(this.observed.inner, slotId);
  }

  turnSettled(turnId: string): Promise<void> {
    return this.turns.settled(turnId);
  }

  async answerSlot(
    slotId: string,
    answer: SlotAnswer,
  ): Promise<{ slotId: string; status: "resolved" | "rejected"; turnId?: string }> {
    // A question this process shows: answered where it waits. Otherwise a stored question whose
    // turn left memory (a restart, idle eviction): the answer resumes that turn here.
    if (this.slots.get(slotId) !== undefined || this.busy || !this.glove.resolveSlot) {
      return applySlotAnswer(this.slots, this.glove.displayManager, slotId, answer);
    }
    try {
      const { turnId } = await this.turns.resume(slotId, answer);
      return { slotId, status: "resolve" in answer ? "resolved" : "rejected", turnId };
    } catch (error) {
      throw refusalToHttp(error);
    }
  }

  async regenerate(): Promise<{ turnId: string }> {
    return this.#branchTurn(() => this.turns.startBranch({ kind: "regenerate" }));
  }

  async editMessage(messageId: string, text: string): Promise<{ turnId: string }> {
    return this.#branchTurn(() => this.turns.startBranch({ kind: "edit", messageId, text }));
  }

  async branches(): Promise<BranchInfo> {
    return asHttp(() => branching(this.glove).branches());
  }

  async switchBranch(messageId: string): Promise<BranchInfo> {
    const { switchBranch } = branching(this.glove);
    await refuseWhileWaiting(this.glove, this.slots, this.busy);
    if (this.busy)
      throw conflict("GLOVE_BUSY", "A turn is running in this conversation. Wait for turn_end, or abort it first.");
    return asHttp(() => switchBranch(messageId));
  }

  /** The store rewrote the active branch: clients follow (`branches_changed`), then a branch turn starts. */
  async branchesChanged(keep: number, messages: Message[]): Promise<void> {
    this.log.append("branches_changed", await branchesChangedEvent(this.observed.inner, keep, messages));
    this.turns.branched();
  }

  /** The branch points as they stand, as a `branches_changed` that keeps every message. */
  async announceBranches(): Promise<void> {
    const count = (await this.observed.inner.getMessages()).length;
    this.log.append("branches_changed", await branchesChangedEvent(this.observed.inner, count, []));
  }

  async #branchTurn(start: () => Promise<{ turnId: string }>): Promise<{ turnId: string }> {
    branching(this.glove);
    // A question waiting holds the conversation, as for a new message.
    await refuseWhileWaiting(this.glove, this.slots, this.busy);
    return asHttp(start);
  }

  /**
   * Leaves a turn that only waits for people (its questions are stored): it ends for clients as
   * "waiting" and the conversation may leave memory; an answer resumes it from the store.
   */
  async suspendIfWaiting(): Promise<boolean> {
    if (
      !this.turns.running ||
      !(await onlyWaitsForPeople(this.glove, this.slots, this.#calls, this.streamingText !== ""))
    )
      return false;
    this.turns.suspend();
    return true;
  }

  async abortTurn(): Promise<AbortOutcome> {
    const turnId = this.turns.running?.id;
    const ending = this.turns.abort("aborted");
    if (!ending) {
      // A turn left waiting for a person: its questions are withdrawn and its calls end as aborted.
      const withdrawn = await withdrawWaiting(this.glove, this.observed.store);
      for (const slotId of withdrawn) this.log.append("slot_settled", { slotId, status: "closed" });
      return withdrawn.length > 0
        ? { aborted: true, status: "aborted" }
        : { aborted: false, message: "No turn is running." };
    }
    // Abortable work stops at once; an unAbortable tool may keep the turn a while: do not wait forever.
    const status = await Promise.race([
      ending,
      new Promise<undefined>((resolve) => void setTimeout(() => resolve(undefined), 2000).unref()),
    ]);
    return { aborted: true, ...(turnId !== undefined ? { turnId } : {}), status: status ?? "aborting" };
  }

  /** The state a client starts from, consistent with `lastEventId` (retried while a write is in flight). */
  async snapshot(): Promise<{ data: Record<string, unknown>; lastId: number }> {
    const store = this.observed.store;
    for (let attempt = 0; ; attempt++) {
      while (this.observed.writing && attempt < 50) await new Promise((resolve) => setTimeout(resolve, 2));
      const version = this.observed.version;
      const [messages, tasks, inbox, stored, waiting] = await Promise.all([
        store.getMessages(),
        store.getTasks?.(),
        store.getInboxItems?.(),
        store.getBranches?.(),
        this.glove.pendingSlots?.(),
      ]);
      if ((this.observed.version !== version || this.observed.writing) && attempt < 50) continue;
      // From here to the return nothing awaits: the streamed text and the rest of the live state
      // are read in the same tick as lastId, so the stream after lastId neither repeats nor skips.
      const lastId = this.log.lastId;
      const data = {
        id: this.id,
        agent: this.record.agent,
        title: this.record.title,
        messages,
        branches: stored && store.rewriteBranches ? branchPoints(messages, stored) : [],
        slots: [...this.slots.list(), ...unshownQuestions(waiting ?? [], this.slots)],
        tasks: tasks ?? [],
        inbox: inbox ?? [],
        busy: this.busy,
        turnId: this.turns.running?.id ?? null,
        streamingText: this.streamingText,
        stats: this.stats,
        lastEventId: lastId,
      };
      return { data, lastId };
    }
  }

  /** Drops the conversation from memory: streams end, the Glove is released; the store keeps everything. */
  async close(): Promise<void> {
    this.log.close();
    this.sides.stop();
    this.inboxWake.stop();
    await this.tracing.close();
    this.#unsubscribeDisplay();
    this.#unobserveCalls();
    if (this.#subscriber) this.glove.removeSubscriber(this.#subscriber);
    this.deps.agents.release(this.record.agent, this.id);
    const closable = this.observed.inner as { close?: () => unknown };
    if (typeof closable.close === "function") await Promise.resolve(closable.close()).catch(() => undefined);
    this.deps.onClosed?.(this.id, this.log.lastId);
  }

  #attach(): void {
    this.#subscriber = {
      // Synchronous: the event bus then delivers streamed events without a promise each.
      record: (...event) => {
        const [type, data] = event;
        this.tracing.observe(this.turns.running?.id, ...event);
        this.#calls.observe(...event);
        if (type === "turn_resumed" && data.agentPath === undefined) {
          // glove-core's answer resumed the turn: clients see the turn start again, then why.
          this.turns.resumed();
          this.log.append("turn_resumed", {
            turnId: this.turns.running?.id ?? null,
            attempt: 1,
            slotId: data.slot_id,
            toolCallId: data.call_id,
          });
          return;
        }
        if (type === "text_delta") this.streamingText += data.text;
        else if (type === "model_response_complete" || type === "model_response") this.streamingText = "";
        this.stats = countEvent(this.stats, type, data);
        this.log.append(type, data);
      },
    };
    this.glove.addSubscriber(this.#subscriber);
    this.#unobserveCalls = this.tracing.attach(this.glove, () => this.turns.running?.id);
    const display = this.glove.displayManager;
    const sync = (stack: Parameters<SlotBoard["sync"]>[0]) =>
      this.slots.sync(stack, (id) => display.resolverStore.has(id));
    this.#unsubscribeDisplay = display.subscribe(sync);
    sync(display.stack);
  }

  /**
   * A turn that was running when its process died: when it waits on stored questions it stays
   * as it is (suspended: an answer resumes it) and ends for clients as "waiting"; with takeover
   * (scale mode) it continues here; otherwise it ends as interrupted, with every tool call answered.
   */
  async #recoverInterruptedTurn(history: Message[]): Promise<void> {
    const turnId = this.record.runningTurnId;
    if (!turnId) return;
    const waiting = ((await this.glove.pendingSlots?.()) ?? []).length > 0;
    const takeover = waiting ? undefined : this.#takeoverOf(history);
    if (takeover && takeover !== "answered") {
      const attempt = await this.deps.takeover!.attempt(this.id, turnId);
      this.turns.takeOver(turnId, attempt, takeover.send);
      return;
    }
    const how = waiting ? "waiting" : takeover === "answered" ? "done" : "interrupted";
    const repair = how === "interrupted" ? repairForInterruptedTools(history, []) : undefined;
    if (repair) await this.observed.store.appendMessages([repair]);
    this.log.append(
      "turn_end",
      how === "interrupted"
        ? {
            turnId,
            status: how,
            error: { code: "GLOVE_INTERRUPTED", message: "The server stopped while this turn ran." },
          }
        : { turnId, status: how },
    );
    this.record.runningTurnId = null;
    // The turn never saved its stats (they are saved when a turn ends): count what its trace recorded.
    const cutShort = this.deps.traces
      ? await endStoredTrace(this.deps.traces, this.id, turnId, how).catch((error: unknown) => {
          this.deps.options.log("[glove-server] could not end a stored trace", error);
          return NO_STATS;
        })
      : NO_STATS;
    this.stats = addStats(this.stats, cutShort);
    await this.deps.catalog.update(this.id, {
      runningTurnId: null,
      runningTurnText: null,
      runningTurnBase: null,
      lastTurnStatus: how,
      stats: this.stats,
    });
  }

  /**
   * How a turn cut short continues on takeover: "answered" when it stored its final answer (only
   * its turn_end was lost), `send` its message when it never stored it; undefined when it cannot
   * (no takeover, or nothing tells what it stored): it ends as interrupted.
   */
  #takeoverOf(history: Message[]): { send: string | undefined } | "answered" | undefined {
    if (!this.deps.takeover) return undefined;
    const { runningTurnBase: base, runningTurnText: text } = this.record;
    if (base === null || base === undefined) return undefined;
    if (history.length <= base) return text === null || text === undefined ? undefined : { send: text };
    const last = history.at(-1)!;
    if (last.sender === "agent" && !last.tool_calls?.length) return "answered";
    return { send: undefined };
  }

  /** Slots nobody can answer any more once their turn is over. */
  #closeLeftoverSlots(): void {
    this.#calls.clear();
    const display = this.glove.displayManager;
    for (const slot of this.slots.list()) if (slot.status === "pending") display.removeSlot(slot.id);
  }

  #onEventId(id: number): void {
    if (this.#reserving || id < this.#reserved - ID_BLOCK / 2) return;
    this.#reserving = true;
    const next = this.#reserved + ID_BLOCK;
    this.deps.catalog
      .update(this.id, { eventIdsReserved: next })
      .then(() => (this.#reserved = next))
      .catch((error: unknown) => this.deps.options.log("[glove-server] could not reserve event ids", error))
      .finally(() => (this.#reserving = false));
  }
}
