import type { VNodeChild } from "vue";
import type { DisplayManagerAdapter, DisplayStrategy, IGloveRunnable, ToolResultData, ToolReturn } from "glove-core";
import type { z } from "zod";
import { DisplayPropsError, toIssues } from "glove-client";
import type { SlotRenderProps, ToolConfig, ToolResultRenderProps, TypedDisplay } from "../types/tool.js";
import { viewOf } from "./define-tool-view.js";

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

/** Checks a value against the tool's schema; a mismatch is the tool's bug and fails its call. */
function checked(
  toolName: string,
  schema: z.ZodType | undefined,
  value: unknown,
  field: DisplayPropsError["schema"] = "displayPropsSchema",
): unknown {
  if (!schema) return value;
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw new DisplayPropsError(toolName, toIssues(parsed.error.issues), field);
  return parsed.data;
}

/** The result with its renderData checked (and parsed: defaults applied) against renderDataSchema. */
function checkedResult(toolName: string, schema: z.ZodType | undefined, result: ToolReturn): ToolReturn {
  if (
    !schema ||
    typeof result !== "object" ||
    result === null ||
    !("renderData" in result) ||
    result.renderData === undefined
  )
    return result;
  return { ...result, renderData: checked(toolName, schema, result.renderData, "renderDataSchema") };
}

function typedDisplay<P, R>(
  display: DisplayManagerAdapter,
  toolName: string,
  schema: z.ZodType | undefined,
): TypedDisplay<P, R> {
  return {
    // async: a props error rejects the push (and so fails the call) instead of throwing synchronously.
    pushAndWait: async (props) => display.pushAndWait<unknown, R>({ input: checked(toolName, schema, props) }),
    pushAndForget: async (props) => display.pushAndForget({ input: checked(toolName, schema, props) }),
    raw: display,
  };
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
  const { name, displayPropsSchema, renderDataSchema } = config;
  const tool: ToolConfig<z.output<I>> = {
    ...viewOf(config),
    description: config.description,
    inputSchema: config.inputSchema as unknown as z.ZodType<z.output<I>>,
    do: async (input, display, glove, signal) =>
      checkedResult(
        name,
        renderDataSchema,
        await config.do(input, typedDisplay<z.input<D>, z.output<R>>(display, name, displayPropsSchema), glove, signal),
      ),
  };
  if (config.resolveSchema) tool.resolveSchema = config.resolveSchema;
  if (config.requiresPermission !== undefined) tool.requiresPermission = config.requiresPermission;
  if (config.unAbortable !== undefined) tool.unAbortable = config.unAbortable;
  return tool;
}
