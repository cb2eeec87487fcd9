import { ServerRequestError } from "../errors.js";
import type { GloveStore } from "../state/glove-store.js";
import type { GloveAction } from "../types/actions.js";
import type { ConversationSnapshot, ErrorInfo, TurnStatus } from "../types/wire.js";
import { toErrorInfo } from "../util/error-info.js";
import type { ServerApi } from "./server-api.js";

export interface SendQueueDeps {
  api: ServerApi;
  store: GloveStore;
  /** The conversation to post to (created on first use). */
  conversation(): Promise<string>;
  dispatch(action: GloveAction): void;
}

const CANCELLED: ErrorInfo = {
  code: "GLOVE_ABORTED",
  message: "Not sent: the conversation was stopped before its turn.",
};
/** Turn ids remembered as ended, for a POST answered after its turn already finished. */
const REMEMBERED_TURNS = 64;

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Messages sent while a turn runs wait their turn here: glove-server answers 409 to a second
 * message (unless it queues itself), so the next POST goes out when the previous turn has ended.
 * A 409 caused by another tab's turn is waited out the same way. Each message keeps its client id
 * across retries, so the server never runs one twice.
 */
export class SendQueue {
  #items: Array<{ clientMessageId: string; text: string }> = [];
  #pumping = false;
  #generation = 0;
  readonly #ended = new Map<string, { status: TurnStatus; error: ErrorInfo | undefined }>();
  readonly #waiters = new Map<string, () => void>();
  /** Which message started which turn, to settle the optimistic entry when the turn ends. */
  readonly #turnMessages = new Map<string, string>();

  constructor(private readonly deps: SendQueueDeps) {}

  add(clientMessageId: string, text: string): void {
    this.#items.push({ clientMessageId, text });
    void this.#pump();
  }

  /** Drops queued messages (shown as failed, with retry) and stops waiting for the current turn. */
  cancelAll(): void {
    this.#generation++;
    for (const item of this.#items.splice(0)) {
      this.deps.dispatch({
        type: "user_message_status",
        clientMessageId: item.clientMessageId,
        status: "failed",
        error: CANCELLED,
      });
    }
    for (const wake of this.#waiters.values()) wake();
    this.#waiters.clear();
  }

  onTurnEnd(turnId: string, status: TurnStatus, error: ErrorInfo | undefined): void {
    const clientMessageId = this.#turnMessages.get(turnId);
    this.#turnMessages.delete(turnId);
    if (clientMessageId) this.#settle(clientMessageId, status, error);
    this.#ended.set(turnId, { status, error });
    if (this.#ended.size > REMEMBERED_TURNS) this.#ended.delete(this.#ended.keys().next().value!);
    this.#waiters.get(turnId)?.();
    this.#waiters.delete(turnId);
  }

  /** A snapshot (after a reconnect) may show that the awaited turn ended while we were away. */
  onSnapshot(snapshot: ConversationSnapshot): void {
    for (const [turnId, wake] of [...this.#waiters]) {
      if (snapshot.turnId !== turnId) {
        this.#waiters.delete(turnId);
        wake();
      }
    }
  }

  async #pump(): Promise<void> {
    if (this.#pumping) return;
    this.#pumping = true;
    try {
      let busyRetries = 0;
      while (this.#items.length > 0) {
        const generation = this.#generation;
        const item = this.#items[0]!;
        const { clientMessageId } = item;
        this.deps.dispatch({ type: "user_message_status", clientMessageId, status: "sending" });
        try {
          const conversationId = await this.deps.conversation();
          const { turnId } = await this.deps.api.postMessage(conversationId, item.text, clientMessageId);
          if (generation !== this.#generation) continue;
          this.#items.shift();
          busyRetries = 0;
          this.deps.dispatch({ type: "user_message_status", clientMessageId, status: "sent" });
          // The turn may already be over (a fast one ends before its POST is answered).
          const ended = this.#ended.get(turnId);
          if (ended) this.#settle(clientMessageId, ended.status, ended.error);
          else this.#turnMessages.set(turnId, clientMessageId);
          await this.#turnOver(turnId);
        } catch (error) {
          if (generation !== this.#generation) continue;
          if (
            ServerRequestError.isInstance(error) &&
            (error.code === "GLOVE_BUSY" || error.code === "GLOVE_QUEUE_FULL")
          ) {
            // Another turn (maybe another tab's) is running: wait for it, then try again.
            this.deps.dispatch({ type: "user_message_status", clientMessageId, status: "queued" });
            await this.#idle(++busyRetries);
            continue;
          }
          this.#items.shift();
          this.deps.dispatch({
            type: "user_message_status",
            clientMessageId,
            status: "failed",
            error: toErrorInfo(error),
          });
        }
      }
    } finally {
      this.#pumping = false;
    }
  }

  /**
   * The message's turn is over and it is still optimistic: it never reached the history (the turn
   * failed or was aborted before storing it) — show it as failed, with retry. After a good turn the
   * history holds it under another text (a preprocessing plugin): the optimistic copy goes.
   */
  #settle(clientMessageId: string, status: TurnStatus, error: ErrorInfo | undefined): void {
    if (!this.deps.store.current.pending.some((p) => p.clientMessageId === clientMessageId)) return;
    // A turn left "waiting" for a person stored the message before it asked.
    if (status === "done" || status === "waiting")
      this.deps.dispatch({ type: "user_message_removed", clientMessageId });
    else
      this.deps.dispatch({
        type: "user_message_status",
        clientMessageId,
        status: "failed",
        error: error ?? { code: "GLOVE_ABORTED", message: "The turn was stopped before the message was stored." },
      });
  }

  #turnOver(turnId: string): Promise<void> {
    if (this.#ended.has(turnId)) return Promise.resolve();
    return new Promise((resolve) => this.#waiters.set(turnId, resolve));
  }

  /** Waits a little (longer each time), then until no turn is known to run (at most 10 s). */
  async #idle(attempt: number): Promise<void> {
    await sleep(Math.min(250 * 2 ** (attempt - 1), 3000));
    const { store } = this.deps;
    if (!store.current.busy) return;
    await new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        unsubscribe();
        resolve();
      };
      const timer = setTimeout(done, 10_000);
      const unsubscribe = store.subscribe(() => {
        if (!store.current.busy) done();
      });
    });
  }
}
