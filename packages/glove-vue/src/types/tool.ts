import type { VNodeChild } from "vue";
import type {
  SlotRenderProps,
  ToolConfig as ClientToolConfig,
  ToolResultRenderProps,
  ToolView as ClientToolView,
} from "glove-client";

export type { ResolveFn, SlotRenderProps, ToolResultRenderProps, TypedDisplay } from "glove-client";

/**
 * Draws a slot. Mounted as a functional component (`h(render, props)`): it re-renders with the
 * slot; for local state, return `h(YourComponent, props)` from it.
 */
export type SlotRenderer<P = unknown, R = unknown> = (props: SlotRenderProps<P, R>) => VNodeChild;
/** Draws a finished tool call from history with its `renderData`. */
export type ToolResultRenderer<D = unknown> = (props: ToolResultRenderProps<D>) => VNodeChild;

/**
 * How a tool looks: what the browser needs to draw a tool that runs elsewhere (a glove-server).
 * `defineToolView` makes one; every `ToolConfig` is one too. glove-client's `ToolView`, drawn with Vue.
 */
export type ToolView = ClientToolView<VNodeChild>;

/**
 * A tool as local mode runs it: glove-core's fold arguments plus colocated Vue renderers. It is
 * also a valid `Glove.fold` argument, so one definition can be folded into a server-side Glove.
 */
export type ToolConfig<I = unknown> = ClientToolConfig<I, VNodeChild>;
