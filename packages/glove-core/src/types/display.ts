import type { z } from "zod";

/**
 * When a UI shows a slot: always (`stay`), until it is answered (`hide-on-complete`), or until a
 * newer slot of the same tool appears (`hide-on-new`).
 */
export type DisplayStrategy = "stay" | "hide-on-complete" | "hide-on-new";

/**
 * Who asks, when a subagent pushed the slot: the subagents it came through (outermost first, as
 * seen from the Glove whose display shows it) and the tool call that asked. Absent on the agent's
 * own slots (their `toolName` and `toolCallId` say it).
 */
export interface SlotOrigin {
  /** `["planner"]` for a subagent's slot, `["planner", "researcher"]` one level deeper. */
  agentPath: readonly string[];
  /** The tool whose call asked (absent for a slot a subagent pushed outside a tool call). */
  toolName?: string | undefined;
  /** That call's input, as the model wrote it. */
  input?: unknown;
  /** This agent's subagent call (`glove_invoke_subagent`) the slot came through: where a UI attaches it. */
  subagentCallId?: string | undefined;
}

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
  /** Which subagent (and which of its tool calls) pushed it; absent on the agent's own slots. */
  origin?: SlotOrigin;
}

/** What a push describes: the renderer and its input, plus where the slot came from. */
export interface SlotPush<I> {
  /** What draws the slot. Default: the name of the tool that pushes it. */
  renderer?: string | undefined;
  /** What the renderer draws (a renderer's props). */
  input: I;
  toolCallId?: string | undefined;
  toolName?: string | undefined;
  displayStrategy?: DisplayStrategy | undefined;
  /** Answers to a `pushAndWait` slot must match this schema (checked before the tool sees them). */
  resolveSchema?: z.ZodType | undefined;
  /** The slot's id, when it must keep one: a stored question shown again after a restart. */
  id?: string | undefined;
  /** Set by the subagent dispatch on its child's slots (see `Slot.origin`). */
  origin?: SlotOrigin | undefined;
}

/** What the `input` of an argument without one must be: the fix, spelled out in the type error. */
type WrapPropsInInput =
  "display.pushAndWait / pushAndForget take { input: props } (glove-react defineTool's typed display takes the props themselves)";

/**
 * The argument of `pushAndWait` / `pushAndForget` as written (`A`), checked against `SlotPush`: a
 * bare props object fails with an error that names `{ input: props }`, and a misspelt key of a
 * `{ input, ... }` object fails at that key. With explicit type arguments `A` is `SlotPush<I>`.
 */
export type SlotPushArg<A> = A &
  Omit<SlotPush<unknown>, "input"> & { input: A extends { input: infer X } ? X : WrapPropsInInput } & (A extends {
    input: unknown;
  }
    ? { [K in Exclude<keyof A, keyof SlotPush<unknown>>]: never }
    : unknown);

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
  /** Shows `{ input, renderer? }` and resolves with the slot id at once. */
  pushAndForget<I, A extends object = SlotPush<I>>(slot: SlotPushArg<A>): Promise<string>;
  /** Shows `{ input, renderer? }` and waits for the UI's answer (`resolve(slotId, value)`). */
  pushAndWait<I, O = unknown, A extends object = SlotPush<I>>(slot: SlotPushArg<A>): Promise<O>;
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

/** The display as one tool call sees it: the display manager, plus steps recorded for the call. */
export interface ToolDisplay extends DisplayManagerAdapter {
  /**
   * Runs `work` once for this call, also when the call runs again to resume after a restart
   * (durable questions): the result is stored, and a replay gets it back instead of running
   * `work` again. Use it for what a tool does before a `pushAndWait` that must not happen twice
   * (a charge, an email). The result must be JSON. Without a store that keeps questions, `work`
   * simply runs.
   */
  step<T>(name: string, work: () => T | Promise<T>): Promise<T>;
}
