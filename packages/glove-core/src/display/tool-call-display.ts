import type {
  CallWaits,
  DisplayManagerAdapter,
  DisplayStrategy,
  ListenerFn,
  Renderer,
  SlotAnswerCheck,
  SlotPush,
  ToolDisplay,
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
  /** The call's stored questions and steps (durable human-in-the-loop), when the store keeps them. */
  waits?: CallWaits;
}

/**
 * The display manager as one tool call sees it: every push is tagged with the call's id and tool
 * name (so a UI attaches the slot to the call that pushed it), the renderer defaults to the tool's
 * name, and an abort takes down the slots the call is still waiting on, so no resolver outlives
 * its request. Everything else goes straight to the shared manager.
 */
export class ToolCallDisplay implements ToolDisplay {
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
    const { waits } = this.options;
    if (waits) return this.storedQuestion<O>(waits, this.tagged(slot), signal);
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

  /** A question kept in the store: shown (or answered from the store) by the call's waits. */
  private async storedQuestion<O>(
    waits: CallWaits,
    slot: SlotPush<unknown>,
    signal: AbortSignal | undefined,
  ): Promise<O> {
    let shown: string | undefined;
    try {
      return await waits.question<O>(this.inner, slot, (id) => {
        shown = id;
        if (!signal) return;
        this.waiting.add(id);
        this.watchAbort(signal);
      });
    } finally {
      if (shown !== undefined) this.waiting.delete(shown);
    }
  }

  step<T>(name: string, work: () => T | Promise<T>): Promise<T> {
    const { waits } = this.options;
    return waits ? waits.step(name, work) : Promise.resolve().then(work);
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
