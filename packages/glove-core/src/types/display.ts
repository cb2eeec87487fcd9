import type { z } from "zod";

/** One entry of the display stack, pushed by a tool and rendered by the UI. */
export interface Slot<I> {
  id: string;
  renderer: string;
  input: I;
}

/** A named renderer the UI knows how to draw. */
export interface Renderer<I, O> {
  name: string;
  inputSchema: z.ZodType<I>;
  outputSchema?: z.ZodType<O>;
}

export type ListenerFn = (stack: Slot<unknown>[]) => void | Promise<void>;
export type UnsubscribeFn = () => void;
export type ResolverFn<RI> = (value: RI) => void;
export type RejectFn = (reason?: unknown) => void;

/** What the runtime needs from a display stack. `Displaymanager` is the shipped implementation. */
export interface DisplayManagerAdapter {
  renderers: Array<Renderer<unknown, unknown>>;
  stack: Slot<unknown>[];
  listeners: Set<ListenerFn>;
  resolverStore: Map<string, { resolve: ResolverFn<unknown>; reject: RejectFn }>;
  registerRenderer<I, O>(renderer: Renderer<I, O>): void;
  pushAndForget<I>(slot: { renderer?: string; input: I }): Promise<string>;
  pushAndWait<I, O = unknown>(slot: { renderer?: string; input: I }): Promise<O>;
  notify(): Promise<void>;
  subscribe(listener: ListenerFn): UnsubscribeFn;
  resolve<O>(slot_id: string, value: O): void;
  reject(slot_id: string, error: unknown): void;
  removeSlot(id: string): void;
  clearStack(): Promise<void>;
}
