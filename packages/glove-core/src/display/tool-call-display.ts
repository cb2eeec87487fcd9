import type {
  DisplayManagerAdapter,
  DisplayStrategy,
  ListenerFn,
  Renderer,
  SlotAnswerCheck,
  SlotPush,
  UnsubscribeFn,
} from "../types/index.js";
import type { z } from "zod";

/** Who is pushing: one tool call, and the tool's display defaults. */
export interface ToolCallDisplayOptions {
  toolName: string;
  toolCallId?: string;
  displayStrategy?: DisplayStrategy;
  resolveSchema?: z.ZodType;
  /** The request's signal: on abort, the slots this call still waits on are removed. */
  signal?: AbortSignal;
}

/**
 * The display manager as one tool call sees it: every push is tagged with the call's id and tool
 * name (so a UI attaches the slot to the call that pushed it), the renderer defaults to the tool's
 * name, and an abort takes down the slots the call is still waiting on, so no resolver outlives
 * its request. Everything else goes straight to the shared manager.
 */
export class ToolCallDisplay implements DisplayManagerAdapter {
  private readonly inner: DisplayManagerAdapter;
  private readonly options: ToolCallDisplayOptions;
  private readonly waiting = new Set<string>();
  private abortHandler: (() => void) | undefined;

  constructor(inner: DisplayManagerAdapter, options: ToolCallDisplayOptions) {
    this.inner = inner;
    this.options = options;
  }

  /** The shared display manager this view forwards to. */
  get manager(): DisplayManagerAdapter {
    return this.inner;
  }

  get renderers(): Array<Renderer<unknown, unknown>> {
    return this.inner.renderers;
  }
  get stack() {
    return this.inner.stack;
  }
  get listeners(): Set<ListenerFn> {
    return this.inner.listeners;
  }
  get resolverStore() {
    return this.inner.resolverStore;
  }

  registerRenderer<I, O>(renderer: Renderer<I, O>): void {
    this.inner.registerRenderer(renderer);
  }

  pushAndForget<I>(slot: SlotPush<I>): Promise<string> {
    return this.inner.pushAndForget(this.tagged(slot));
  }

  async pushAndWait<I, O = unknown>(slot: SlotPush<I>): Promise<O> {
    const signal = this.options.signal;
    const before = new Set(this.inner.resolverStore.keys());
    const answer = this.inner.pushAndWait<I, O>(this.tagged(slot));
    // The resolver is registered synchronously by the shipped manager; custom managers may be later.
    const id = [...this.inner.resolverStore.keys()].find((key) => !before.has(key));
    if (id === undefined || !signal) return answer;
    this.waiting.add(id);
    this.watchAbort(signal);
    try {
      return await answer;
    } finally {
      this.waiting.delete(id);
    }
  }

  notify(): Promise<void> {
    return this.inner.notify();
  }
  subscribe(listener: ListenerFn): UnsubscribeFn {
    return this.inner.subscribe(listener);
  }
  resolve<O>(slot_id: string, value: O): void {
    this.inner.resolve(slot_id, value);
  }
  reject(slot_id: string, error: unknown): void {
    this.inner.reject(slot_id, error);
  }
  removeSlot(id: string): void {
    this.inner.removeSlot(id);
  }
  clearStack(): Promise<void> {
    return this.inner.clearStack();
  }
  checkAnswer(slot_id: string, value: unknown): SlotAnswerCheck {
    if (this.inner.checkAnswer) return this.inner.checkAnswer(slot_id, value);
    return { ok: true, value };
  }

  private tagged<I>(slot: SlotPush<I>): SlotPush<I> {
    const { toolName, toolCallId, displayStrategy, resolveSchema } = this.options;
    return {
      ...slot,
      renderer: slot.renderer ?? toolName,
      toolName: slot.toolName ?? toolName,
      toolCallId: slot.toolCallId ?? toolCallId,
      displayStrategy: slot.displayStrategy ?? displayStrategy,
      resolveSchema: slot.resolveSchema ?? resolveSchema,
    };
  }

  private watchAbort(signal: AbortSignal): void {
    if (this.abortHandler) return;
    this.abortHandler = () => {
      for (const id of [...this.waiting]) this.inner.removeSlot(id);
    };
    if (signal.aborted) this.abortHandler();
    else signal.addEventListener("abort", this.abortHandler, { once: true });
  }
}
