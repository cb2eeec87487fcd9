import type { VNodeChild } from "vue";
import type { ToolReturn } from "glove-core";
import type { z } from "zod";
import { checkedTool, type TypedToolConfig } from "glove-client";
import type { ToolConfig } from "../types/tool.js";

export type { RenderDataOf, ResultDataOf, ToolReturnFor } from "glove-client";

/** `defineTool`'s argument (glove-client's `TypedToolConfig`), rendering VNodeChilds. */
export type DefineToolConfig<
  I extends z.ZodType,
  D extends z.ZodType,
  R extends z.ZodType,
  T extends ToolReturn,
  RD extends z.ZodType = z.ZodType<unknown>,
> = TypedToolConfig<I, D, R, T, RD, VNodeChild>;

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
