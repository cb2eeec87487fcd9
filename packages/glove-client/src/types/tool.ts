import type { DisplayManagerAdapter, DisplayStrategy, IGloveRunnable, ToolReturn } from "glove-core";
import type { z } from "zod";
import type { ClientSlot, SlotIssue } from "./state.js";
import type { SlotStatus } from "./wire.js";
import type { ToolStatus } from "./timeline.js";

/** `resolve` takes no argument when the answer type allows `undefined` (e.g. a plain "OK" button). */
export type ResolveFn<R> = undefined extends R ? (value?: R) => void : (value: R) => void;

/** What a slot renderer receives. `props`/`data` are the slot's input (two names, one value). */
export interface SlotRenderProps<P = unknown, R = unknown> {
  props: P;
  /** The same as `props` (the name older glove-react renderers use). */
  data: P;
  /** Answers a pending pushAndWait slot; a no-op once the slot is settled. */
  resolve: ResolveFn<R>;
  reject: (reason?: string) => void;
  status: SlotStatus;
  /** Why the last answer was refused (it failed the tool's `resolveSchema`); the tool keeps waiting. */
  issues: SlotIssue[] | undefined;
  slot: ClientSlot;
}

/** What `renderResult` receives to draw a finished call from history. */
export interface ToolResultRenderProps<D = unknown> {
  /** The result's `renderData`. */
  data: D;
  output: string | undefined;
  status: Exclude<ToolStatus, "running">;
  input: unknown;
}

/**
 * How a tool looks: what a UI needs to draw a tool that runs elsewhere (a glove-server).
 * `Rendered` is what the UI's renderers return (glove-react: a `ReactNode`); glove-client never
 * calls them, it only carries them. Methods (not function properties) keep typed views assignable.
 */
export interface ToolView<Rendered = unknown> {
  name: string;
  displayStrategy?: DisplayStrategy | undefined;
  /** Draws this tool's slots (the slot's renderer defaults to the tool's name). */
  render?(props: SlotRenderProps): Rendered;
  /** Draws a finished call of this tool from history, from its result's `renderData`. */
  renderResult?(props: ToolResultRenderProps): Rendered;
}

/**
 * A tool as local mode runs it: glove-core's fold arguments plus colocated renderers. It is also
 * a valid `Glove.fold` argument, so one definition can be folded into a server-side Glove.
 */
export interface ToolConfig<I = unknown, Rendered = unknown> extends ToolView<Rendered> {
  description: string;
  inputSchema?: z.ZodType<I> | undefined;
  /** Raw JSON Schema instead of zod (skips local validation). */
  jsonSchema?: Record<string, unknown> | undefined;
  requiresPermission?: boolean | undefined;
  unAbortable?: boolean | undefined;
  /** Answers to this tool's pushAndWait slots must match it; checked before the tool sees them. */
  resolveSchema?: z.ZodType | undefined;
  do(input: I, display: DisplayManagerAdapter, glove: IGloveRunnable, signal?: AbortSignal): Promise<ToolReturn>;
}

/** The display a `defineTool` tool gets: typed props in, typed answer out. */
export interface TypedDisplay<P, R> {
  /** Shows the props and waits for the user's answer (checked against `resolveSchema`). */
  pushAndWait(props: P): Promise<R>;
  /** Shows the props; resolves with the slot id. */
  pushAndForget(props: P): Promise<string>;
  /** The call's untyped display, for other renderers (`{ renderer, input }`). */
  readonly raw: DisplayManagerAdapter;
}
