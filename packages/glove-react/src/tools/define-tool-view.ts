import type { ReactNode } from "react";
import type { DisplayStrategy } from "glove-core";
import type { z } from "zod";
import { viewOf } from "glove-client";
import type { SlotRenderProps, ToolResultRenderProps, ToolView } from "../types/tool.js";

/**
 * What a tool's server side (`defineTool`) and browser side (`defineToolView`) agree on. Keep it in
 * a module both import (zod only, no server code) and spread it into each, so the props, the answer
 * and the renderData are typed from one set of schemas.
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
export interface DefineToolViewConfig<D extends z.ZodType, R extends z.ZodType, RD extends z.ZodType> {
  name: string;
  description?: string | undefined;
  inputSchema?: z.ZodType | undefined;
  displayPropsSchema?: D | undefined;
  resolveSchema?: R | undefined;
  renderDataSchema?: RD | undefined;
  displayStrategy?: DisplayStrategy | undefined;
  render?(props: SlotRenderProps<z.output<D>, z.input<R>>): ReactNode;
  renderResult?(props: ToolResultRenderProps<z.output<RD>>): ReactNode;
}

/**
 * How a tool that runs on a glove-server looks in the browser: typed `render` / `renderResult`
 * and no `do`, so nothing of the server's tool (its code, its imports) reaches the page. Pass it
 * in `useGlove({ server, tools })`; the server folds `defineTool({ ...schemas, do })`.
 */
export function defineToolView<
  D extends z.ZodType = z.ZodType<unknown>,
  R extends z.ZodType = z.ZodType<unknown>,
  RD extends z.ZodType = z.ZodType<unknown>,
>(config: DefineToolViewConfig<D, R, RD>): ToolView {
  return viewOf<ReactNode>(config);
}
