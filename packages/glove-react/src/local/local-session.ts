import { AbortError, type ContentPart, type ModelAdapter } from "glove-core";
import { GloveStore } from "../state/glove-store.js";
import type { GloveAction } from "../types/actions.js";
import type { GloveSession, ImageInput, SlotAnswerResult } from "../types/session.js";
import type { ToolView } from "../types/tool.js";
import { runnableTools } from "../tools/define-tool-view.js";
import type { ErrorInfo, TurnStatus } from "../types/wire.js";
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

const CANCELLED: ErrorInfo = { code: "GLOVE_ABORTED", message: "Not sent: the conversation was stopped before its turn." };
const NO_SESSION: ErrorInfo = { code: "GLOVE_NO_SESSION", message: "The session could not be opened, so the message was not sent." };

function toRequest(text: string, images: ImageInput[] | undefined): string | ContentPart[] {
  if (!images?.length) return text;
  return [...images.map((image): ContentPart => ({ type: "image", source: { type: "base64", media_type: image.media_type, data: image.data } })), { type: "text", text }];
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
    return this.#current?.resolve(slotId, value) ?? { ok: false, reason: "unknown_slot", message: "No conversation is open." };
  }

  async rejectSlot(slotId: string, reason?: string): Promise<SlotAnswerResult> {
    return this.#current?.reject(slotId, reason) ?? { ok: false, reason: "unknown_slot", message: "No conversation is open." };
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
        const item = this.#queue.shift();
        if (!item) break;
        if (!conversation) {
          this.#dispatch({ type: "user_message_status", clientMessageId: item.clientMessageId, status: "failed", error: NO_SESSION });
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

  async #runTurn(conversation: LocalConversation, item: QueuedSend): Promise<void> {
    const { clientMessageId, controller } = item;
    const turnId = `turn-${++this.#turns}`;
    const live = () => !conversation.closed;
    this.#dispatch({ type: "user_message_status", clientMessageId, status: "sending" });
    this.#dispatch({ type: "turn_start", turnId });
    let status: TurnStatus = "done";
    let error: ErrorInfo | undefined;
    try {
      await conversation.run(toRequest(item.text, item.images), controller.signal);
    } catch (caught) {
      if (controller.signal.aborted || AbortError.isInstance(caught)) status = "aborted";
      else {
        status = "error";
        error = toErrorInfo(caught);
      }
    }
    if (!live()) return;
    await conversation.refreshSideLists().catch(() => undefined);
    this.#dispatch(error ? { type: "turn_end", turnId, status, error } : { type: "turn_end", turnId, status });
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
      this.#dispatch({ type: "user_message_status", clientMessageId: item.clientMessageId, status: "failed", error: CANCELLED });
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
