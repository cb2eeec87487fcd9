import { ServerRequestError } from "../errors.js";
import { GloveStore } from "../state/glove-store.js";
import type { GloveAction } from "../types/actions.js";
import type { BranchActionResult, GloveSession, ImageInput, SlotAnswerResult } from "../types/session.js";
import type { ConversationSnapshot } from "../types/wire.js";
import { branchRefusal } from "../util/branch-result.js";
import { toErrorInfo } from "../util/error-info.js";
import { newId } from "../util/ids.js";
import { EventStream, type StreamTuning } from "./event-stream.js";
import { ServerApi, type ServerConnectionOptions } from "./server-api.js";
import { SendQueue } from "./send-queue.js";
import type { SseFrame } from "./sse-reader.js";
import { frameToAction } from "./wire-events.js";

export interface ServerSessionOptions extends ServerConnectionOptions, StreamTuning {
  /** The agent new conversations are created for (default: the server's first). */
  agent?: string | undefined;
  /** The conversation to attach to; without one, the first message creates it. */
  conversationId?: string | undefined;
  /** A snapshot rendered on the server (SSR): shown at once, and the stream resumes after it. */
  initialSnapshot?: ConversationSnapshot | undefined;
  /** Told when the conversation changes (created, switched, new), e.g. to put it in the URL. */
  onConversationChange?: ((conversationId: string | null) => void) | undefined;
}

/**
 * Server mode: the conversation runs on a glove-server. Events arrive over one SSE stream that
 * resumes after a lost connection; messages, slot answers and aborts are POSTs. Every tab
 * attached to the conversation just follows the server, so they stay in step.
 */
export class ServerSession implements GloveSession {
  readonly mode = "server" as const;
  readonly store: GloveStore;
  readonly api: ServerApi;
  #options: ServerSessionOptions;
  #conversationId: string | null;
  #lastEventId: number | undefined;
  #stream: EventStream | undefined;
  #creating: Promise<string> | undefined;
  #resyncing = false;
  #disposed = false;
  #started = false;
  readonly #queue: SendQueue;

  constructor(options: ServerSessionOptions, store?: GloveStore) {
    this.#options = options;
    this.api = new ServerApi(options);
    this.store = store ?? new GloveStore();
    this.#conversationId = options.conversationId ?? options.initialSnapshot?.id ?? null;
    this.#lastEventId = options.initialSnapshot?.lastEventId ?? undefined;
    this.#queue = new SendQueue({
      api: this.api,
      store: this.store,
      conversation: () => this.#ensureConversation(),
      dispatch: (action) => this.#dispatch(action),
    });
  }

  get conversationId(): string | null {
    return this.#conversationId;
  }

  start(): void {
    if (this.#started || this.#disposed) return;
    this.#started = true;
    if (this.#conversationId) this.#connect(this.#conversationId);
  }

  dispose(): void {
    if (this.#disposed) return;
    this.#disposed = true;
    this.#queue.cancelAll();
    this.#stream?.stop();
    this.store.dispose();
  }

  sendMessage(text: string, images?: ImageInput[]): string {
    const clientMessageId = newId("msg-");
    this.#dispatch({ type: "user_message_queued", clientMessageId, text });
    if (images?.length) {
      // glove-server's message route takes text only.
      const error = {
        code: "GLOVE_UNSUPPORTED",
        message: "Images cannot be sent to a Glove server: its message route takes text only.",
      };
      this.#dispatch({ type: "user_message_status", clientMessageId, status: "failed", error });
      return clientMessageId;
    }
    this.#queue.add(clientMessageId, text);
    return clientMessageId;
  }

  retry(clientMessageId: string): void {
    const pending = this.store.current.pending.find((p) => p.clientMessageId === clientMessageId);
    if (pending?.status !== "failed" || pending.error?.code === "GLOVE_UNSUPPORTED") return;
    this.#dispatch({ type: "user_message_queued", clientMessageId, text: pending.text });
    this.#queue.add(clientMessageId, pending.text);
  }

  /** Stops the running turn for everyone (the server aborts the model, tools and slots). */
  async abort(): Promise<void> {
    this.#queue.cancelAll();
    const id = this.#conversationId;
    if (!id) return;
    try {
      await this.api.abort(id);
    } catch (error) {
      this.#dispatch({ type: "error", error: toErrorInfo(error) });
    }
  }

  resolveSlot(slotId: string, value: unknown): Promise<SlotAnswerResult> {
    // JSON has no undefined: an empty answer (a plain "OK") travels as null.
    return this.#answer(slotId, { resolve: value === undefined ? null : value }, "resolved");
  }

  rejectSlot(slotId: string, reason?: string): Promise<SlotAnswerResult> {
    return this.#answer(slotId, { reject: reason ?? "rejected by the user" }, "rejected");
  }

  regenerate(): Promise<BranchActionResult> {
    return this.#branch((id) => this.api.regenerate(id));
  }

  editMessage(messageId: string, text: string): Promise<BranchActionResult> {
    return this.#branch((id) => this.api.editMessage(id, messageId, text));
  }

  switchBranch(messageId: string): Promise<BranchActionResult> {
    return this.#branch((id) => this.api.switchBranch(id, messageId));
  }

  /** The server changes the branch; every tab (this one too) follows its branches_changed event. */
  async #branch(request: (conversationId: string) => Promise<unknown>): Promise<BranchActionResult> {
    const id = this.#conversationId;
    if (!id) return { ok: false, reason: "refused", message: "No conversation is open." };
    try {
      await request(id);
      return { ok: true };
    } catch (error) {
      return branchRefusal(error);
    }
  }

  newConversation(): void {
    this.#switch(null);
  }

  switchConversation(id: string): void {
    this.#switch(id);
  }

  /** Tools only render in server mode: they run on the server. */
  setTools(): void {}

  async #answer(
    slotId: string,
    answer: { resolve: unknown } | { reject: string },
    how: "resolved" | "rejected",
  ): Promise<SlotAnswerResult> {
    const id = this.#conversationId;
    if (!id) return { ok: false, reason: "unknown_slot", message: "No conversation is open." };
    try {
      await this.api.answerSlot(id, slotId, answer);
      this.#dispatch({ type: "slot_issues", slotId, issues: null });
      // The server's slot_settled follows; settling now keeps the UI right while the stream is down.
      this.#dispatch({ type: "slot_settled", slotId, status: how });
      return { ok: true };
    } catch (error) {
      if (!ServerRequestError.isInstance(error)) throw error;
      if (error.status === 400 && error.issues?.length) {
        this.#dispatch({ type: "slot_issues", slotId, issues: error.issues });
        return { ok: false, reason: "invalid", message: error.message, issues: error.issues };
      }
      if (error.status === 409) return { ok: false, reason: "settled", message: error.message };
      if (error.status === 404) return { ok: false, reason: "unknown_slot", message: error.message };
      if (error.status === 0) return { ok: false, reason: "unreachable", message: error.message };
      return { ok: false, reason: "refused", message: error.message };
    }
  }

  #switch(id: string | null): void {
    if (this.#disposed) return;
    this.#queue.cancelAll();
    this.#stream?.stop();
    this.#stream = undefined;
    this.#creating = undefined;
    this.#conversationId = id;
    this.#lastEventId = undefined;
    this.#dispatch({ type: "reset", conversationId: id });
    this.#options.onConversationChange?.(id);
    if (id && this.#started) this.#connect(id);
  }

  async #ensureConversation(): Promise<string> {
    if (this.#conversationId) return this.#conversationId;
    this.#creating ??= this.api.createConversation(this.#options.agent).then((created) => {
      if (this.#disposed) return created.id;
      this.#conversationId = created.id;
      this.#options.onConversationChange?.(created.id);
      if (this.#started) this.#connect(created.id);
      return created.id;
    });
    try {
      return await this.#creating;
    } catch (error) {
      this.#creating = undefined;
      throw error;
    }
  }

  #connect(conversationId: string): void {
    const stream = new EventStream({
      ...this.#options,
      api: this.api,
      conversationId,
      lastEventId: () => this.#lastEventId,
      onFrame: (frame) => {
        if (this.#stream === stream) this.#onFrame(frame);
      },
      onState: (state, error) => {
        if (this.#stream === stream)
          this.#dispatch({ type: "connection", state, ...(error !== undefined ? { error } : {}) });
      },
    });
    this.#stream = stream;
    stream.start();
  }

  #onFrame(frame: SseFrame): void {
    const parsed = frameToAction(frame);
    if (!parsed) return;
    const { action, id } = parsed;
    if (action.type === "snapshot") {
      if (id !== undefined) this.#lastEventId = id;
      this.#dispatch(action);
      this.#queue.onSnapshot(action.snapshot);
      return;
    }
    // Never apply an event twice (an overlapping replay).
    if (id !== undefined) {
      if (this.#lastEventId !== undefined && id <= this.#lastEventId) return;
      this.#lastEventId = id;
    }
    if (action.type === "messages_appended" && action.startIndex > this.store.current.messages.length) {
      // Events were lost (the history has a hole): take the server's whole state instead.
      void this.#resync();
      return;
    }
    this.#dispatch(action);
    if (action.type === "turn_end") this.#queue.onTurnEnd(action.turnId, action.status, action.error);
  }

  async #resync(): Promise<void> {
    const id = this.#conversationId;
    if (!id || this.#resyncing) return;
    this.#resyncing = true;
    try {
      const snapshot = await this.api.snapshot(id);
      if (id !== this.#conversationId || this.#disposed) return;
      if (typeof snapshot.lastEventId === "number")
        this.#lastEventId = Math.max(this.#lastEventId ?? 0, snapshot.lastEventId);
      this.#dispatch({ type: "snapshot", snapshot });
      this.#queue.onSnapshot(snapshot);
    } catch (error) {
      this.#dispatch({ type: "error", error: toErrorInfo(error) });
    } finally {
      this.#resyncing = false;
    }
  }

  #dispatch(action: GloveAction): void {
    if (!this.#disposed) this.store.dispatch(action);
  }
}
