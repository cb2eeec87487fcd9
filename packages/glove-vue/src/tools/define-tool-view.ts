import type { VNodeChild } from "vue";
import type { z } from "zod";
import { viewOf, type TypedToolViewConfig } from "glove-client";
import type { ToolView } from "../types/tool.js";

export type { ToolSchemas } from "glove-client";

/** `defineToolView`'s argument (glove-client's `TypedToolViewConfig`), rendering VNodeChilds. */
export type DefineToolViewConfig<D extends z.ZodType, R extends z.ZodType, RD extends z.ZodType> = TypedToolViewConfig<
  D,
  R,
  RD,
  VNodeChild
>;

/**
 * How a tool that runs on a glove-server looks in the browser: typed `render` / `renderResult`
 * and no `do`, so nothing of the server's tool reaches the page. Pass it in
 * `useGlove({ server, tools })`; the server folds `defineTool({ ...schemas, do })`.
 */
export function defineToolView<
  D extends z.ZodType = z.ZodType<unknown>,
  R extends z.ZodType = z.ZodType<unknown>,
  RD extends z.ZodType = z.ZodType<unknown>,
>(config: DefineToolViewConfig<D, R, RD>): ToolView {
  return viewOf<VNodeChild>(config);
}
