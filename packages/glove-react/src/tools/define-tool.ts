import type { ReactNode } from "react";
import type { DisplayManagerAdapter, DisplayStrategy, IGloveRunnable, ToolReturn } from "glove-core";
import type { z } from "zod";
import { DisplayPropsError, toIssues } from "../errors.js";
import type { SlotRenderProps, ToolConfig, ToolResultRenderProps, TypedDisplay } from "../types/tool.js";

/** The `renderData` type a `do` returns, or unknown. */
export type RenderDataOf<T> = T extends { renderData?: infer D } ? (unknown extends D ? unknown : D) : unknown;

/**
 * `defineTool`'s argument. `D` (displayPropsSchema) types what `do` pushes and what `render`
 * receives; `R` (resolveSchema) types what `render` may resolve and what `pushAndWait` returns.
 * Both are checked at run time too: props when the tool pushes, answers before the tool sees them.
 */
export interface DefineToolConfig<I extends z.ZodType, D extends z.ZodType, R extends z.ZodType, T extends ToolReturn> {
  name: string;
  description: string;
  inputSchema: I;
  displayPropsSchema?: D;
  resolveSchema?: R;
  displayStrategy?: DisplayStrategy;
  requiresPermission?: boolean;
  unAbortable?: boolean;
  do(input: z.output<I>, display: TypedDisplay<z.input<D>, z.output<R>>, glove: IGloveRunnable, signal?: AbortSignal): Promise<T>;
  render?(props: SlotRenderProps<z.output<D>, z.input<R>>): ReactNode;
  renderResult?(props: ToolResultRenderProps<RenderDataOf<T>>): ReactNode;
}

/** Checks pushed props against the schema; a mismatch is the tool's bug and fails its call. */
function checkedProps(toolName: string, schema: z.ZodType | undefined, props: unknown): unknown {
  if (!schema) return props;
  const parsed = schema.safeParse(props);
  if (!parsed.success) throw new DisplayPropsError(toolName, toIssues(parsed.error.issues));
  return parsed.data;
}

function typedDisplay<P, R>(display: DisplayManagerAdapter, toolName: string, schema: z.ZodType | undefined): TypedDisplay<P, R> {
  return {
    // async: a props error rejects the push (and so fails the call) instead of throwing synchronously.
    pushAndWait: async (props) => display.pushAndWait<unknown, R>({ input: checkedProps(toolName, schema, props) }),
    pushAndForget: async (props) => display.pushAndForget({ input: checkedProps(toolName, schema, props) }),
    raw: display,
  };
}

/**
 * A tool with typed, colocated UI. The result is a `ToolConfig` for `useGlove({ tools })` and
 * equally a `Glove.fold` argument, so one definition serves a server-side Glove (its `do`) and the
 * browser (its `render` / `renderResult`). The slot's renderer is the tool's name.
 */
export function defineTool<I extends z.ZodType, D extends z.ZodType = z.ZodType<unknown>, R extends z.ZodType = z.ZodType<unknown>, T extends ToolReturn = ToolReturn>(
  config: DefineToolConfig<I, D, R, T>,
): ToolConfig<z.output<I>> {
  const { name, displayPropsSchema } = config;
  const tool: ToolConfig<z.output<I>> = {
    name,
    description: config.description,
    inputSchema: config.inputSchema as unknown as z.ZodType<z.output<I>>,
    do: (input, display, glove, signal) =>
      config.do(input, typedDisplay<z.input<D>, z.output<R>>(display, name, displayPropsSchema), glove, signal),
  };
  if (config.resolveSchema) tool.resolveSchema = config.resolveSchema;
  if (config.displayStrategy) tool.displayStrategy = config.displayStrategy;
  if (config.requiresPermission !== undefined) tool.requiresPermission = config.requiresPermission;
  if (config.unAbortable !== undefined) tool.unAbortable = config.unAbortable;
  // The user's functions themselves (not wrappers made per call): stable identities for React.
  if (config.render) tool.render = config.render as NonNullable<ToolConfig["render"]>;
  if (config.renderResult) tool.renderResult = config.renderResult as NonNullable<ToolConfig["renderResult"]>;
  return tool;
}
