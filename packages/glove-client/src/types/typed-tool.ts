import type { DisplayStrategy, IGloveRunnable, ToolResultData, ToolReturn } from "glove-core";
import type { z } from "zod";
import type { SlotRenderProps, ToolResultRenderProps, TypedDisplay } from "./tool.js";

// The typed tool configs every binding shares; a binding names its framework's node (`Rendered`).

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
export interface TypedToolConfig<
  I extends z.ZodType,
  D extends z.ZodType,
  R extends z.ZodType,
  T extends ToolReturn,
  RD extends z.ZodType,
  Rendered,
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
  render?(props: SlotRenderProps<z.output<D>, z.input<R>>): Rendered;
  renderResult?(props: ToolResultRenderProps<ResultDataOf<RD, T>>): Rendered;
}

/**
 * What a tool's server side (`defineTool`) and browser side (`defineToolView`) agree on. Keep it in
 * a module both import (zod only, no server code) and spread it into each, so the props, the answer
 * and the renderData are typed from one set of schemas — for a React page and a Vue page alike.
 */
export interface ToolSchemas {
  name: string;
  description: string;
  inputSchema: z.ZodType;
  /** What `do` pushes and `render` receives. */
  displayPropsSchema?: z.ZodType | undefined;
  /** What `render` may answer and `pushAndWait` returns. */
  resolveSchema?: z.ZodType | undefined;
  /** What `do` returns as `renderData` and `renderResult` receives (checked on the server). */
  renderDataSchema?: z.ZodType | undefined;
  displayStrategy?: DisplayStrategy | undefined;
}

/**
 * `defineToolView`'s argument: the shared schemas (only their types are used here) and the
 * renderers. `description` and `inputSchema` are accepted so a whole `ToolSchemas` spreads in.
 */
export interface TypedToolViewConfig<D extends z.ZodType, R extends z.ZodType, RD extends z.ZodType, Rendered> {
  name: string;
  description?: string | undefined;
  inputSchema?: z.ZodType | undefined;
  displayPropsSchema?: D | undefined;
  resolveSchema?: R | undefined;
  renderDataSchema?: RD | undefined;
  displayStrategy?: DisplayStrategy | undefined;
  render?(props: SlotRenderProps<z.output<D>, z.input<R>>): Rendered;
  renderResult?(props: ToolResultRenderProps<z.output<RD>>): Rendered;
}
