import type { z } from "zod";

/**
 * When a UI shows a slot: always (`stay`), until it is answered (`hide-on-complete`), or until a
 * newer slot of the same tool appears (`hide-on-new`).
 */
export type DisplayStrategy = "stay" | "hide-on-complete" | "hide-on-new";

/** One entry of the display stack, pushed by a tool and rendered by the UI. */
export interface Slot<I> {
  id: string;
  renderer: string;
  input: I;
  /** The id of the tool call that pushed this slot (absent when no tool call did). */
  toolCallId?: string;
  /** The name of the tool that pushed this slot. */
  toolName?: string;
  /** How the UI should keep this slot visible; the tool's choice. */
  displayStrategy?: DisplayStrategy;
}

/** What a push describes: the renderer and its input, plus where the slot came from. */
export interface SlotPush<I> {
  renderer?: string;
  input: I;
  toolCallId?: string;
  toolName?: string;
  displayStrategy?: DisplayStrategy;
  /** Answers to a `pushAndWait` slot must match this schema (checked before the tool sees them). */
  resolveSchema?: z.ZodType;
}

/** The outcome of checking an answer before resolving a slot with it. */
export type SlotAnswerCheck =
  | { ok: true; value: unknown }
  | { ok: false; reason: "unknown_slot"; message: string }
  | { ok: false; reason: "invalid"; message: string; issues: Array<{ path: string; message: string }> };

/** A named renderer the UI knows how to draw. */
export interface Renderer<I, O> {
  name: string;
  inputSchema: z.ZodType<I>;
  outputSchema?: z.ZodType<O>;
}

/** Called with the whole display stack after every change. */
export type ListenerFn = (stack: Slot<unknown>[]) => void | Promise<void>;
/** Stops the listener that `subscribe` returned it for. */
export type UnsubscribeFn = () => void;
/** Answers a waiting slot with the user's value. */
export type ResolverFn<RI> = (value: RI) => void;
/** Fails a waiting slot, e.g. when the user dismisses it. */
export type RejectFn = (reason?: unknown) => void;

/** What the runtime needs from a display stack. `Displaymanager` is the shipped implementation. */
export interface DisplayManagerAdapter {
  renderers: Array<Renderer<unknown, unknown>>;
  stack: Slot<unknown>[];
  listeners: Set<ListenerFn>;
  resolverStore: Map<string, { resolve: ResolverFn<unknown>; reject: RejectFn }>;
  registerRenderer<I, O>(renderer: Renderer<I, O>): void;
  pushAndForget<I>(slot: SlotPush<I>): Promise<string>;
  pushAndWait<I, O = unknown>(slot: SlotPush<I>): Promise<O>;
  notify(): Promise<void>;
  subscribe(listener: ListenerFn): UnsubscribeFn;
  resolve<O>(slot_id: string, value: O): void;
  reject(slot_id: string, error: unknown): void;
  removeSlot(id: string): void;
  clearStack(): Promise<void>;
  /**
   * Optional: checks an answer against the slot's resolve schema (or its renderer's outputSchema)
   * without settling the slot, so a UI can show the issues while the tool keeps waiting.
   */
  checkAnswer?(slot_id: string, value: unknown): SlotAnswerCheck;
}
