import { AbortError, GloveError, type StoredAnswer } from "glove-core";
import { conflict, HttpError } from "../errors.js";
import type { ResolvedServerOptions } from "../options.js";
import type { ConversationCatalog } from "../storage/types.js";
import { runBranchOp } from "./branch-view.js";
import type { BranchOp } from "./conversation-handle.js";
import type { LiveConversation } from "./live-conversation.js";

/** How a turn ended; "waiting": it waits for a person and left memory (it resumes when answered). */
export type TurnStatus = "done" | "aborted" | "error" | "interrupted" | "waiting";

interface Turn {
  id: string;
  text: string;
  /** The client's id for the message, echoed in turn_start so it can reconcile its optimistic copy. */
  clientMessageId?: string;
  controller: AbortController;
  /** Why the signal fired: a client's abort, or the server shutting down. */
  stopReason?: "aborted" | "interrupted";
  done?: Promise<TurnStatus>;
  /** Resolves once the turn has ended, or was dropped from the queue without running. */
  settled: Promise<void>;
  settle: () => void;
  /** A turn that resumes by answering a stored question instead of sending a message. */
  answer?: { slotId: string; value: StoredAnswer; started: Deferred };
  /** Left waiting for a person (suspended): nothing it does afterwards is reported. */
  suspended?: boolean;
  /** A regenerate or an edit (decision 0025): announced once its branch is set aside; refused before, it leaves no trace. */
  branch?: { op: BranchOp; started: Deferred };
  /** A turn that delivers resolved inbox answers: announced (and recorded as running) once it claimed some. */
  inbox?: { claimed: boolean; recorded?: Promise<void> };
  /** Its start's catalog update already marked it running (one write at the start, not two). */
  markedRunning?: boolean;
  /** A turn whose owner died, continued here (scale mode): `send` when its message was never stored. */
  takeover?: { attempt: number; send: boolean };
}

/** A promise with its settle functions, and whether it settled. */
interface Deferred {
  settled: boolean;
  promise: Promise<void>;
  resolve: () => void;
  reject: (error: unknown) => void;
}

/** The catalog fields of a conversation with no running turn. */
const NOT_RUNNING = { runningTurnId: null, runningTurnText: null, runningTurnBase: null };

/** How many client message ids a conversation remembers for retries. */
const REMEMBERED_CLIENT_IDS = 64;

/**
 * Runs a conversation's turns one at a time: `turn_start`, the Glove's request, `turn_end` with
 * how it ended. Aborts reach the model call, tools and slots through the request's signal.
 */
export class TurnRunner {
  running: Turn | undefined;
  readonly #queue: Turn[] = [];
  readonly #clientIds = new Map<string, string>();

  constructor(
    private readonly conversation: LiveConversation,
    private readonly catalog: ConversationCatalog,
    private readonly options: ResolvedServerOptions,
    private readonly afterTurn: () => void,
  ) {}

  /**
   * Starts (or, when busy and queueing, queues) a turn. The same `clientMessageId` again answers
   * with the turn it started instead of starting another.
   */
  async start(text: string, clientMessageId: string | undefined): Promise<{ turnId: string; duplicate: boolean }> {
    const record = this.conversation.record;
    const known = this.turnFor(clientMessageId);
    if (known) return { turnId: known, duplicate: true };
    if (this.running) {
      if (this.options.busy !== "queue") {
        throw conflict(
          "GLOVE_BUSY",
          "A turn is already running in this conversation. Wait for turn_end, or abort it first.",
        );
      }
      if (this.#queue.length >= this.options.queuedTurns) {
        throw new HttpError(
          429,
          "GLOVE_QUEUE_FULL",
          `${this.#queue.length} messages are already waiting. Wait for a turn to end.`,
        );
      }
    }
    const turn: Turn = {
      id: crypto.randomUUID(),
      text,
      controller: new AbortController(),
      ...(clientMessageId !== undefined ? { clientMessageId } : {}),
      ...settlement(),
    };
    if (clientMessageId !== undefined) this.#remember(clientMessageId, turn.id);
    // Taken synchronously, so two concurrent POSTs can never both start a turn.
    const queued = this.running !== undefined;
    if (queued) this.#queue.push(turn);
    else this.running = turn;
    const now = new Date().toISOString();
    const changes = {
      lastClientMessageId: clientMessageId ?? null,
      lastTurnId: turn.id,
      updatedAt: now,
      title: record.title ?? text.trim().slice(0, 80),
      // A turn that starts at once is marked running in the same write (a queued one when it begins).
      ...(queued ? {} : this.#running(turn)),
    };
    turn.markedRunning = !queued;
    Object.assign(record, changes);
    try {
      await this.catalog.update(record.id, changes);
    } catch (error) {
      this.options.log("[glove-server] catalog update failed", error);
    }
    if (!queued) this.#begin(turn);
    return { turnId: turn.id, duplicate: false };
  }

  /** The turn a client's message id started, when this conversation remembers it (a retry answers it). */
  turnFor(clientMessageId: string | undefined): string | undefined {
    if (clientMessageId === undefined) return undefined;
    const record = this.conversation.record;
    return (
      this.#clientIds.get(clientMessageId) ??
      (record.lastClientMessageId === clientMessageId ? (record.lastTurnId ?? undefined) : undefined)
    );
  }

  /**
   * Answers a stored question whose turn left memory, and resumes that turn here: resolves once
   * the answer is recorded and the turn goes on (`turn_start`, then `turn_resumed`), or rejects
   * with the refusal (unknown, already answered, invalid) while nothing was recorded.
   */
  async resume(slotId: string, value: StoredAnswer): Promise<{ turnId: string }> {
    if (this.running)
      throw conflict(
        "GLOVE_BUSY",
        "A turn is already running in this conversation. Wait for turn_end, or abort it first.",
      );
    const started = deferred();
    const turn: Turn = {
      id: crypto.randomUUID(),
      text: "",
      controller: new AbortController(),
      answer: { slotId, value, started },
      ...settlement(),
    };
    this.#begin(turn);
    await started.promise;
    return { turnId: turn.id };
  }

  /**
   * Starts a regenerate or an edit as a turn: resolves once its branch is set aside and the turn
   * started (`branches_changed`, then `turn_start`), or rejects with glove-core's refusal while
   * nothing changed. Never queued: a branch operation under a running turn is a 409.
   */
  async startBranch(op: BranchOp): Promise<{ turnId: string }> {
    if (this.running)
      throw conflict(
        "GLOVE_BUSY",
        "A turn is already running in this conversation. Wait for turn_end, or abort it first.",
      );
    const started = deferred();
    const turn: Turn = {
      id: crypto.randomUUID(),
      text: op.kind === "edit" ? op.text : "",
      controller: new AbortController(),
      branch: { op, started },
      ...settlement(),
    };
    this.#begin(turn);
    await started.promise;
    return { turnId: turn.id };
  }

  /** Called when the running branch turn's rewrite landed in the store: its events start now. */
  branched(): void {
    const turn = this.running;
    if (!turn?.branch || turn.branch.started.settled) return;
    this.conversation.log.append("turn_start", { turnId: turn.id, branch: turn.branch.op.kind });
    turn.branch.started.resolve();
  }

  /**
   * Starts a turn that delivers resolved inbox answers (`glove.deliverInbox`, see inbox-wake.ts).
   * Clients see it from its claim on: when another process claimed the answers first, or a stored
   * question waits, no turn shows at all. Undefined while a turn runs; else resolves, once it
   * ended, with whether it delivered anything.
   */
  startInboxDelivery(): Promise<boolean> | undefined {
    if (this.running) return undefined;
    const inbox = { claimed: false };
    const turn: Turn = { id: crypto.randomUUID(), text: "", controller: new AbortController(), inbox, ...settlement() };
    this.#begin(turn);
    return turn.settled.then(() => inbox.claimed);
  }

  /**
   * Called when the Glove reports that the answered turn resumed: its events start now. The
   * stored question was never on this process's board, so clients showing it (from a snapshot)
   * learn here that it is answered, as they would from the board.
   */
  resumed(): void {
    const turn = this.running;
    if (!turn?.answer) return;
    const { slotId, value } = turn.answer;
    this.conversation.log.append("slot_settled", { slotId, status: "resolve" in value ? "resolved" : "rejected" });
    this.conversation.log.append("turn_start", { turnId: turn.id });
    turn.answer.started.resolve();
  }

  /**
   * Leaves the running turn waiting for a person: it ends for clients as "waiting", and the
   * conversation can leave memory. Only when every call it runs waits on a stored question.
   */
  suspend(): void {
    const turn = this.running;
    if (!turn) return;
    turn.suspended = true;
    this.running = undefined;
    this.conversation.log.append("turn_end", { turnId: turn.id, status: "waiting" });
    void this.conversation.tracing.end(turn.id, "waiting");
    void this.catalog
      .update(this.conversation.id, {
        ...NOT_RUNNING,
        updatedAt: new Date().toISOString(),
        stats: this.conversation.stats,
        lastTurnStatus: "waiting",
      })
      .catch((error: unknown) => this.options.log("[glove-server] catalog update failed", error));
    turn.settle();
  }

  /**
   * Continues a turn whose owner died (the scale mode's takeover): clients get `turn_resumed`, then
   * the rest of the turn — its message sent when it was never stored (`text`), else the stored
   * turn continued (`continueTurn`: calls that were running end as interrupted unless their tool
   * may run again).
   */
  takeOver(turnId: string, attempt: number, text: string | undefined): void {
    if (this.running) return;
    const turn: Turn = {
      id: turnId,
      text: text ?? "",
      controller: new AbortController(),
      takeover: { attempt, send: text !== undefined },
      markedRunning: true,
      ...settlement(),
    };
    this.#begin(turn);
  }

  /** Resolves once the turn `turnId` (running or queued) has ended; at once for any other. */
  settled(turnId: string): Promise<void> {
    return [this.running, ...this.#queue].find((turn) => turn?.id === turnId)?.settled ?? Promise.resolve();
  }

  /** Aborts the running turn and drops queued ones; resolves with the turn's end, if one ran. */
  abort(reason: "aborted" | "interrupted"): Promise<TurnStatus> | undefined {
    for (const dropped of this.#queue) dropped.settle();
    this.#queue.length = 0;
    const turn = this.running;
    if (!turn) return undefined;
    turn.stopReason ??= reason;
    turn.controller.abort(
      new AbortError(reason === "aborted" ? "A client aborted the turn." : "The server is shutting down."),
    );
    return turn.done;
  }

  #begin(turn: Turn): void {
    this.running = turn;
    turn.done = this.#run(turn);
  }

  async #run(turn: Turn): Promise<TurnStatus> {
    const { conversation, catalog } = this;
    conversation.lastActive = Date.now();
    if (!turn.inbox && !turn.markedRunning)
      await catalog
        .update(conversation.id, this.#running(turn))
        .catch((error: unknown) => this.options.log("[glove-server] catalog update failed", error));
    // A resumed turn announces itself once its answer is recorded (see `resumed`), an inbox delivery once it claimed answers.
    if (!turn.answer && !turn.inbox && !turn.branch && !turn.takeover) {
      conversation.log.append(
        "turn_start",
        turn.clientMessageId !== undefined
          ? { turnId: turn.id, clientMessageId: turn.clientMessageId }
          : { turnId: turn.id },
      );
    }
    let status: TurnStatus = "done";
    let error: { code: string; message: string } | undefined;
    try {
      await this.#request(turn);
      // Answered without resuming anything (the question was live after all): still a turn that ran.
      if (turn.answer && !turn.answer.started.settled) this.resumed();
      if (turn.branch && !turn.branch.started.settled) this.branched();
      if (turn.inbox && !turn.inbox.claimed) return this.#dropUnclaimed(turn);
    } catch (caught) {
      if (turn.inbox && !turn.inbox.claimed) {
        if (!turn.controller.signal.aborted)
          this.options.log(`[glove-server] inbox delivery failed in conversation ${conversation.id}`, caught);
        return this.#dropUnclaimed(turn);
      }
      const started = turn.answer?.started ?? turn.branch?.started;
      if (started && !started.settled) {
        // Refused before anything was recorded: no turn ran.
        started.reject(caught);
        this.running = undefined;
        await catalog.update(conversation.id, { runningTurnId: null }).catch(() => undefined);
        turn.settle();
        return "error";
      }
      if (turn.controller.signal.aborted || AbortError.isInstance(caught)) {
        status = turn.stopReason ?? "aborted";
      } else {
        status = "error";
        error = this.#describe(caught);
      }
    }
    if (turn.suspended) return "waiting";
    conversation.streamingText = "";
    this.afterTurn();
    await turn.inbox?.recorded;
    await conversation.tracing.end(turn.id, status, error?.code);
    await catalog
      .update(conversation.id, {
        ...NOT_RUNNING,
        updatedAt: new Date().toISOString(),
        stats: conversation.stats,
        lastTurnStatus: status,
      })
      .catch((failure: unknown) => this.options.log("[glove-server] catalog update failed", failure));
    // Free before turn_end goes out: a client that posts on turn_end must not get a 409.
    this.running = undefined;
    conversation.log.append("turn_end", error ? { turnId: turn.id, status, error } : { turnId: turn.id, status });
    turn.settle();
    conversation.lastActive = Date.now();
    const next = this.#queue.shift();
    if (next) this.#begin(next);
    return status;
  }

  /** The catalog fields that mark `turn` running, with what a takeover needs to continue it. */
  #running(turn: Turn): { runningTurnId: string; runningTurnText: string | null; runningTurnBase: number | null } {
    const message = !turn.answer && !turn.branch && !turn.inbox && !turn.takeover;
    return {
      runningTurnId: turn.id,
      runningTurnText: message ? turn.text : null,
      runningTurnBase: this.conversation.observed.messageCount ?? null,
    };
  }

  /** The Glove's work for the turn: a message, or an answer to a stored question. */
  async #request(turn: Turn): Promise<void> {
    const { glove } = this.conversation;
    const answer = turn.answer;
    if (turn.takeover) {
      this.conversation.log.append("turn_resumed", { turnId: turn.id, attempt: turn.takeover.attempt });
      if (turn.takeover.send) {
        await glove.processRequest(turn.text, turn.controller.signal);
        return;
      }
      if (!glove.continueTurn)
        throw new GloveError("This agent cannot continue a turn (its Glove has no continueTurn).", {
          code: "GLOVE_NOT_SUPPORTED",
        });
      await glove.continueTurn(turn.controller.signal);
      return;
    }
    if (turn.inbox) {
      await glove.deliverInbox?.({ signal: turn.controller.signal, onClaimed: () => this.#announceDelivery(turn) });
      return;
    }
    if (turn.branch) {
      await runBranchOp(glove, turn.branch.op, turn.controller.signal);
      // The new answer is a sibling now: clients get the branch points with it.
      return this.conversation.announceBranches();
    }
    if (!answer) {
      await glove.processRequest(turn.text, turn.controller.signal);
      return;
    }
    const answering = "resolve" in answer.value ? glove.resolveSlot : glove.rejectSlot;
    if (!answering)
      throw new GloveError("This agent cannot answer stored questions (its Glove has no resolveSlot).", {
        code: "GLOVE_NOT_SUPPORTED",
      });
    const value = "resolve" in answer.value ? answer.value.resolve : answer.value.reject;
    await answering.call(glove, answer.slotId, value, turn.controller.signal);
  }

  /** The delivery claimed answers: from now on it is a turn like any other. */
  #announceDelivery(turn: Turn): void {
    const inbox = turn.inbox!;
    inbox.claimed = true;
    inbox.recorded = this.catalog
      .update(this.conversation.id, { runningTurnId: turn.id })
      .catch((error: unknown) => this.options.log("[glove-server] catalog update failed", error));
    this.conversation.log.append("turn_start", { turnId: turn.id, inbox: true });
  }

  /** A delivery that claimed nothing leaves no trace: no events, nothing in the catalog. */
  #dropUnclaimed(turn: Turn): TurnStatus {
    this.running = undefined;
    turn.settle();
    const next = this.#queue.shift();
    if (next) this.#begin(next);
    return "done";
  }

  /** What clients may see of a failure: Glove errors say what happened; anything else is only logged. */
  #describe(caught: unknown): { code: string; message: string } {
    if (GloveError.isInstance(caught)) return { code: caught.code, message: caught.message };
    this.options.log(`[glove-server] turn failed in conversation ${this.conversation.id}`, caught);
    return {
      code: "GLOVE_TURN_FAILED",
      message: "The turn failed; the server logged the error. Send the message again or start a new conversation.",
    };
  }

  #remember(clientMessageId: string, turnId: string): void {
    this.#clientIds.set(clientMessageId, turnId);
    if (this.#clientIds.size > REMEMBERED_CLIENT_IDS) this.#clientIds.delete(this.#clientIds.keys().next().value!);
  }
}

function deferred(): Deferred {
  const entry = { settled: false } as Deferred;
  entry.promise = new Promise<void>((resolve, reject) => {
    entry.resolve = () => {
      entry.settled = true;
      resolve();
    };
    entry.reject = (error) => {
      entry.settled = true;
      reject(error);
    };
  });
  return entry;
}

/** A promise and the function that resolves it. */
function settlement(): { settled: Promise<void>; settle: () => void } {
  let settle: () => void = () => undefined;
  const settled = new Promise<void>((resolve) => (settle = resolve));
  return { settled, settle };
}
