import type { VNodeChild } from "vue";
import type { DisplayStrategy, IGloveRunnable, ToolResultData, ToolReturn } from "glove-core";
import type { z } from "zod";
import { checkedTool } from "glove-client";
import type { SlotRenderProps, ToolConfig, ToolResultRenderProps, TypedDisplay } from "../types/tool.js";

/** The `renderData` type a `do` returns, or unknown. */
export type RenderDataOf<T> = T extends { renderData?: infer D } ? (unknown extends D ? unknown : D) : unknown;

/** What `do` may return: anything, or with a `renderDataSchema`, a result whose renderData matches it. */
export type ToolReturnFor<RD> = unknown extends RD ? ToolReturn : string | (ToolResultData & { renderData?: RD });

/** `renderResult`'s data: the renderDataSchema's output when there is one, else what `do` returns. */
export type ResultDataOf<RD extends z.ZodType, T> = unknown extends z.output<RD> ? RenderDataOf<T> : z.output<RD>;

/**
 * `defineTool`'s argument. `D` (displayPropsSchema) types what `do` pushes and what `render`
 * receives; `R` (resolveSchema) types what `render` may resolve and what `pushAndWait` returns;
 * `RD` (renderDataSchema) types the renderData `do` returns and `renderResult` draws. All are
 * checked at run time too: props when the tool pushes, answers before the tool sees them,
 * renderData when `do` returns.
 */
export interface DefineToolConfig<
  I extends z.ZodType,
  D extends z.ZodType,
  R extends z.ZodType,
  T extends ToolReturn,
  RD extends z.ZodType = z.ZodType<unknown>,
> {
  name: string;
  description: string;
  inputSchema: I;
  displayPropsSchema?: D | undefined;
  resolveSchema?: R | undefined;
  renderDataSchema?: RD | undefined;
  displayStrategy?: DisplayStrategy | undefined;
  requiresPermission?: boolean | undefined;
  unAbortable?: boolean | undefined;
  do(
    input: z.output<I>,
    display: TypedDisplay<z.input<D>, z.output<R>>,
    glove: IGloveRunnable,
    signal?: AbortSignal,
  ): Promise<T & ToolReturnFor<z.input<RD>>>;
  render?(props: SlotRenderProps<z.output<D>, z.input<R>>): VNodeChild;
  renderResult?(props: ToolResultRenderProps<ResultDataOf<RD, T>>): VNodeChild;
}

/**
 * A tool with typed, colocated UI. The result is a `ToolConfig` for `useGlove({ tools })` and
 * equally a `Glove.fold` argument. For a server-side Glove, keep the schemas in a shared module
 * (`ToolSchemas`): the server folds `defineTool({ ...schemas, do })` and the page draws
 * `defineToolView({ ...schemas, render })`, so `do` and its imports never reach the browser.
 * The slot's renderer is the tool's name.
 */
export function defineTool<
  I extends z.ZodType,
  D extends z.ZodType = z.ZodType<unknown>,
  R extends z.ZodType = z.ZodType<unknown>,
  T extends ToolReturn = ToolReturn,
  RD extends z.ZodType = z.ZodType<unknown>,
>(config: DefineToolConfig<I, D, R, T, RD>): ToolConfig<z.output<I>> {
  // glove-client checks the props, the answer's schema and the renderData; this adds the types.
  return checkedTool<z.output<I>, z.input<D>, z.output<R>, VNodeChild>(config);
}
