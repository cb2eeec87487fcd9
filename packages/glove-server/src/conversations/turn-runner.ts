import { AbortError, GloveError } from "glove-core";
import { conflict, HttpError } from "../errors.js";
import type { ResolvedServerOptions } from "../options.js";
import type { ConversationCatalog } from "../storage/types.js";
import type { LiveConversation } from "./live-conversation.js";

export type TurnStatus = "done" | "aborted" | "error" | "interrupted";

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
}

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
    if (clientMessageId !== undefined) {
      const known = this.#clientIds.get(clientMessageId) ??
        (record.lastClientMessageId === clientMessageId ? record.lastTurnId ?? undefined : undefined);
      if (known) return { turnId: known, duplicate: true };
    }
    if (this.running) {
      if (this.options.busy !== "queue") {
        throw conflict("GLOVE_BUSY", "A turn is already running in this conversation. Wait for turn_end, or abort it first.");
      }
      if (this.#queue.length >= this.options.queuedTurns) {
        throw new HttpError(429, "GLOVE_QUEUE_FULL", `${this.#queue.length} messages are already waiting. Wait for a turn to end.`);
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
    };
    Object.assign(record, changes);
    try {
      await this.catalog.update(record.id, changes);
    } catch (error) {
      this.options.log("[glove-server] catalog update failed", error);
    }
    if (!queued) this.#begin(turn);
    return { turnId: turn.id, duplicate: false };
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
    turn.controller.abort(new AbortError(reason === "aborted" ? "A client aborted the turn." : "The server is shutting down."));
    return turn.done;
  }

  #begin(turn: Turn): void {
    this.running = turn;
    turn.done = this.#run(turn);
  }

  async #run(turn: Turn): Promise<TurnStatus> {
    const { conversation, catalog } = this;
    conversation.lastActive = Date.now();
    await catalog.update(conversation.id, { runningTurnId: turn.id }).catch((error: unknown) => this.options.log("[glove-server] catalog update failed", error));
    conversation.log.append("turn_start", turn.clientMessageId !== undefined ? { turnId: turn.id, clientMessageId: turn.clientMessageId } : { turnId: turn.id });
    let status: TurnStatus = "done";
    let error: { code: string; message: string } | undefined;
    try {
      await conversation.glove.processRequest(turn.text, turn.controller.signal);
    } catch (caught) {
      if (turn.controller.signal.aborted || AbortError.isInstance(caught)) {
        status = turn.stopReason ?? "aborted";
      } else {
        status = "error";
        error = this.#describe(caught);
      }
    }
    conversation.streamingText = "";
    this.afterTurn();
    await catalog
      .update(conversation.id, { runningTurnId: null, updatedAt: new Date().toISOString(), stats: conversation.stats })
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

  /** What clients may see of a failure: Glove errors say what happened; anything else is only logged. */
  #describe(caught: unknown): { code: string; message: string } {
    if (GloveError.isInstance(caught)) return { code: caught.code, message: caught.message };
    this.options.log(`[glove-server] turn failed in conversation ${this.conversation.id}`, caught);
    return { code: "GLOVE_TURN_FAILED", message: "The turn failed; the server logged the error. Send the message again or start a new conversation." };
  }

  #remember(clientMessageId: string, turnId: string): void {
    this.#clientIds.set(clientMessageId, turnId);
    if (this.#clientIds.size > REMEMBERED_CLIENT_IDS) this.#clientIds.delete(this.#clientIds.keys().next().value!);
  }
}

/** A promise and the function that resolves it. */
function settlement(): { settled: Promise<void>; settle: () => void } {
  let settle: () => void = () => undefined;
  const settled = new Promise<void>((resolve) => (settle = resolve));
  return { settled, settle };
}
