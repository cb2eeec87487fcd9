import type { ContentPart, ModelAdapter } from "glove-core";
import { AbortError, BranchError } from "glove-core/errors";
import { GloveStore } from "../state/glove-store.js";
import type { GloveAction } from "../types/actions.js";
import type { BranchActionResult, GloveSession, ImageInput, SlotAnswerResult } from "../types/session.js";
import type { ToolView } from "../types/tool.js";
import { runnableTools } from "../tools/runnable-tools.js";
import type { ErrorInfo, TurnStatus } from "../types/wire.js";
import { branchRefusal } from "../util/branch-result.js";
import { toErrorInfo } from "../util/error-info.js";
import { newId } from "../util/ids.js";
import { LocalConversation, persistStorage } from "./local-conversation.js";
import type { LocalSessionOptions } from "./local-options.js";

interface QueuedSend {
  clientMessageId: string;
  text: string;
  images: ImageInput[] | undefined;
  controller: AbortController;
}

const CANCELLED: ErrorInfo = {
  code: "GLOVE_ABORTED",
  message: "Not sent: the conversation was stopped before its turn.",
};
const BUSY: BranchActionResult = {
  ok: false,
  reason: "busy",
  message: "A turn is running or messages wait to be sent; wait for them or stop them first.",
};
const NO_CONVERSATION: BranchActionResult = { ok: false, reason: "refused", message: "No conversation is open." };

/** What one turn of the tab's Glove does. */
type TurnWork = (conversation: LocalConversation, signal: AbortSignal) => Promise<unknown>;

const NO_SESSION: ErrorInfo = {
  code: "GLOVE_NO_SESSION",
  message: "The session could not be opened, so the message was not sent.",
};

function toRequest(text: string, images: ImageInput[] | undefined): string | ContentPart[] {
  if (!images?.length) return text;
  return [
    ...images.map((image): ContentPart => ({
      type: "image",
      source: { type: "base64", media_type: image.media_type, data: image.data },
    })),
    { type: "text", text },
  ];
}

function previewsOf(images: ImageInput[] | undefined): { images?: string[] } {
  return images?.length ? { images: images.map((image) => `data:${image.media_type};base64,${image.data}`) } : {};
}

/**
 * Local mode: the Glove runs in this tab. Messages queue (one turn at a time, in order), each turn
 * is bracketed by `turn_start` / `turn_end` like on a server, and switching conversations closes
 * the old one first so nothing of it reaches the new state.
 */
export class LocalSession implements GloveSession {
  readonly mode = "local" as const;
  readonly store: GloveStore;
  #options: LocalSessionOptions;
  #conversation: Promise<LocalConversation | undefined> | undefined;
  #current: LocalConversation | undefined;
  #generation = 0;
  #queue: QueuedSend[] = [];
  #running: { item: QueuedSend; done: Promise<void> } | undefined;
  #pumping = false;
  #disposed = false;
  #turns = 0;
  #sessionId: string | null = null;
  /** What failed sends carried, for `retry`. */
  readonly #sent = new Map<string, { text: string; images: ImageInput[] | undefined }>();

  constructor(options: LocalSessionOptions, store: GloveStore = new GloveStore()) {
    this.#options = options;
    this.store = store;
  }

  get conversationId(): string | null {
    return this.#sessionId;
  }

  /** The conversation's Glove, once open (for hooks, skills, voice…). */
  get glove() {
    return this.#current?.glove;
  }

  /** Resolves when the conversation is open (undefined if it failed to open). */
  ready(): Promise<LocalConversation | undefined> {
    return this.#conversation ?? Promise.resolve(undefined);
  }

  start(): void {
    if (this.#conversation || this.#disposed) return;
    this.#open(this.#options.sessionId ?? this.#lastSessionId() ?? newId("session-"), true);
  }

  dispose(): void {
    if (this.#disposed) return;
    this.#disposed = true;
    this.#cancelAll();
    this.#current?.close();
    this.store.dispose();
  }

  sendMessage(text: string, images?: ImageInput[]): string {
    const clientMessageId = newId("msg-");
    this.#sent.set(clientMessageId, { text, images });
    this.#dispatch({ type: "user_message_queued", clientMessageId, text, ...previewsOf(images) });
    this.#enqueue(clientMessageId, text, images);
    return clientMessageId;
  }

  retry(clientMessageId: string): void {
    const sent = this.#sent.get(clientMessageId);
    const pending = this.store.current.pending.find((p) => p.clientMessageId === clientMessageId);
    if (!sent || pending?.status !== "failed") return;
    this.#dispatch({ type: "user_message_queued", clientMessageId, text: sent.text, ...previewsOf(sent.images) });
    this.#enqueue(clientMessageId, sent.text, sent.images);
  }

  async abort(): Promise<void> {
    const running = this.#running;
    this.#cancelAll();
    await running?.done;
  }

  async resolveSlot(slotId: string, value: unknown): Promise<SlotAnswerResult> {
    return (
      this.#current?.resolve(slotId, value) ?? {
        ok: false,
        reason: "unknown_slot",
        message: "No conversation is open.",
      }
    );
  }

  async rejectSlot(slotId: string, reason?: string): Promise<SlotAnswerResult> {
    return (
      this.#current?.reject(slotId, reason) ?? {
        ok: false,
        reason: "unknown_slot",
        message: "No conversation is open.",
      }
    );
  }

  regenerate(): Promise<BranchActionResult> {
    return this.#branchTurn((conversation, signal) => conversation.glove.regenerate(signal));
  }

  editMessage(messageId: string, text: string): Promise<BranchActionResult> {
    return this.#branchTurn((conversation, signal) => conversation.glove.editMessage(messageId, text, signal));
  }

  async switchBranch(messageId: string): Promise<BranchActionResult> {
    const conversation = this.#current;
    if (!conversation) return NO_CONVERSATION;
    if (this.#running || this.#queue.length > 0) return BUSY;
    try {
      await conversation.glove.switchBranch(messageId);
      return { ok: true };
    } catch (error) {
      return branchRefusal(error);
    }
  }

  /** A regenerate or an edit: a turn like a message's (stoppable with `abort`), refused while another runs or waits. */
  async #branchTurn(work: TurnWork): Promise<BranchActionResult> {
    const conversation = this.#current;
    if (!conversation) return NO_CONVERSATION;
    if (this.#running || this.#queue.length > 0) return BUSY;
    const item: QueuedSend = { clientMessageId: "", text: "", images: undefined, controller: new AbortController() };
    const done = this.#turn(conversation, item.controller.signal, async (c, signal) => {
      await work(c, signal);
      await c.refreshBranches();
    });
    this.#running = { item, done: done.then(() => undefined) };
    const { caught } = await done;
    this.#running = undefined;
    return BranchError.isInstance(caught) ? branchRefusal(caught) : { ok: true };
  }

  newConversation(): void {
    this.switchConversation(newId("session-"));
  }

  switchConversation(id: string): void {
    if (this.#disposed) return;
    this.#cancelAll();
    this.#current?.close();
    this.#current = undefined;
    this.#open(id, false);
  }

  setTools(views: readonly ToolView[]): void {
    const tools = runnableTools(views);
    this.#options = { ...this.#options, tools };
    this.#current?.setTools(tools);
  }

  /** Takes a new system prompt or model without rebuilding the conversation. */
  update(changes: { systemPrompt?: string; model?: ModelAdapter }): void {
    this.#options = { ...this.#options, ...changes };
    if (changes.systemPrompt !== undefined) this.#current?.glove.setSystemPrompt(changes.systemPrompt);
    if (changes.model) this.#current?.glove.setModel(changes.model);
  }

  #open(sessionId: string, first: boolean): void {
    const generation = ++this.#generation;
    this.#sessionId = sessionId;
    this.store.dispatch({ type: "reset", conversationId: sessionId });
    this.#rememberSessionId(sessionId);
    this.#conversation = LocalConversation.open(this.#options, sessionId, first, (action) => {
      if (generation === this.#generation && !this.#disposed) this.store.dispatch(action);
    }).then(
      (conversation) => {
        if (generation !== this.#generation || this.#disposed) {
          conversation.close();
          return undefined;
        }
        this.#current = conversation;
        return conversation;
      },
      (error: unknown) => {
        if (generation === this.#generation) this.#dispatch({ type: "error", error: toErrorInfo(error) });
        return undefined;
      },
    );
    void this.#pump();
  }

  #enqueue(clientMessageId: string, text: string, images: ImageInput[] | undefined): void {
    this.#queue.push({ clientMessageId, text, images, controller: new AbortController() });
    void this.#pump();
  }

  async #pump(): Promise<void> {
    if (this.#pumping) return;
    this.#pumping = true;
    try {
      while (this.#queue.length > 0 && !this.#disposed) {
        const conversation = await this.#conversation;
        // A regenerate or an edit runs first: this message follows it.
        if (this.#running) await this.#running.done;
        const item = this.#queue.shift();
        if (!item) break;
        if (!conversation) {
          this.#dispatch({
            type: "user_message_status",
            clientMessageId: item.clientMessageId,
            status: "failed",
            error: NO_SESSION,
          });
          continue;
        }
        const done = this.#runTurn(conversation, item);
        this.#running = { item, done };
        await done;
        this.#running = undefined;
      }
    } finally {
      this.#pumping = false;
    }
  }

  /**
   * One turn bracketed by `turn_start` / `turn_end`, as on a server. A branch refusal changed
   * nothing: the turn ends "done" without an error and the caller reports it.
   */
  async #turn(
    conversation: LocalConversation,
    signal: AbortSignal,
    work: TurnWork,
  ): Promise<{ status: TurnStatus; error?: ErrorInfo; caught?: unknown; closed: boolean }> {
    const turnId = `turn-${++this.#turns}`;
    this.#dispatch({ type: "turn_start", turnId });
    let status: TurnStatus = "done";
    let error: ErrorInfo | undefined;
    let caught: unknown;
    try {
      await work(conversation, signal);
    } catch (failure) {
      caught = failure;
      if (BranchError.isInstance(failure)) status = "done";
      else if (signal.aborted || AbortError.isInstance(failure)) status = "aborted";
      else {
        status = "error";
        error = toErrorInfo(failure);
      }
    }
    if (conversation.closed) return { status, caught, closed: true };
    await conversation.refreshSideLists().catch(() => undefined);
    this.#dispatch(error ? { type: "turn_end", turnId, status, error } : { type: "turn_end", turnId, status });
    return { status, caught, closed: false, ...(error ? { error } : {}) };
  }

  async #runTurn(conversation: LocalConversation, item: QueuedSend): Promise<void> {
    const { clientMessageId, controller } = item;
    this.#dispatch({ type: "user_message_status", clientMessageId, status: "sending" });
    const { status, error, closed } = await this.#turn(conversation, controller.signal, (c, signal) =>
      c.run(toRequest(item.text, item.images), signal),
    );
    if (closed) return;
    // The message never reached the history (aborted or failed before it was stored): say so, keep it for retry.
    const unsent = this.store.current.pending.some((p) => p.clientMessageId === clientMessageId);
    if (unsent && status !== "done") {
      this.#dispatch({ type: "user_message_status", clientMessageId, status: "failed", error: error ?? CANCELLED });
    } else {
      if (unsent) this.#dispatch({ type: "user_message_removed", clientMessageId });
      this.#sent.delete(clientMessageId);
    }
  }

  #cancelAll(): void {
    for (const item of this.#queue.splice(0)) {
      this.#dispatch({
        type: "user_message_status",
        clientMessageId: item.clientMessageId,
        status: "failed",
        error: CANCELLED,
      });
    }
    this.#running?.item.controller.abort(new AbortError("The user stopped the turn."));
  }

  #dispatch(action: GloveAction): void {
    if (!this.#disposed) this.store.dispatch(action);
  }

  #lastSessionId(): string | undefined {
    const persist = persistStorage(this.#options);
    try {
      return persist?.storage.getItem(`${persist.prefix}last-session`) ?? undefined;
    } catch {
      return undefined;
    }
  }

  #rememberSessionId(sessionId: string): void {
    const persist = persistStorage(this.#options);
    try {
      persist?.storage.setItem(`${persist.prefix}last-session`, sessionId);
    } catch {
      // Storage blocked: the session still works, it just is not the one a reload opens.
    }
  }
}
