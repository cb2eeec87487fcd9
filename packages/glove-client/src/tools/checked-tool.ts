import type { DisplayManagerAdapter, DisplayStrategy, IGloveRunnable, ToolReturn } from "glove-core";
import type { z } from "zod";
import { DisplayPropsError, toIssues } from "../errors.js";
import type { ToolConfig, ToolView, TypedDisplay } from "../types/tool.js";

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

/** The parts every tool shares with its view: name, strategy and the user's own renderers. */
export function viewOf<Rendered>(config: {
  name: string;
  displayStrategy?: DisplayStrategy | undefined;
  render?: unknown;
  renderResult?: unknown;
}): ToolView<Rendered> {
  const view: ToolView<Rendered> = { name: config.name };
  if (config.displayStrategy) view.displayStrategy = config.displayStrategy;
  // The user's functions themselves (not wrappers made per call): stable identities for the UI framework.
  if (config.render) view.render = config.render as NonNullable<ToolView<Rendered>["render"]>;
  if (config.renderResult) view.renderResult = config.renderResult as NonNullable<ToolView<Rendered>["renderResult"]>;
  return view;
}

/** What `checkedTool` needs: the schemas and flags of a `defineTool` config, and its `do` with a typed display. */
export interface CheckedToolConfig<I, P, R> {
  name: string;
  description: string;
  inputSchema: z.ZodType;
  displayPropsSchema?: z.ZodType | undefined;
  resolveSchema?: z.ZodType | undefined;
  renderDataSchema?: z.ZodType | undefined;
  displayStrategy?: DisplayStrategy | undefined;
  requiresPermission?: boolean | undefined;
  unAbortable?: boolean | undefined;
  render?: unknown;
  renderResult?: unknown;
  do(input: I, display: TypedDisplay<P, R>, glove: IGloveRunnable, signal?: AbortSignal): Promise<ToolReturn>;
}

/**
 * The run-time half of every binding's `defineTool`: a `ToolConfig` whose `do` gets a typed display
 * (props checked against `displayPropsSchema` when pushed) and whose result's `renderData` is
 * checked against `renderDataSchema`. The bindings add the types of their own renderers.
 */
export function checkedTool<I, P, R, Rendered>(config: CheckedToolConfig<I, P, R>): ToolConfig<I, Rendered> {
  const { name, displayPropsSchema, renderDataSchema } = config;
  const tool: ToolConfig<I, Rendered> = {
    ...viewOf<Rendered>(config),
    description: config.description,
    inputSchema: config.inputSchema as unknown as z.ZodType<I>,
    do: async (input, display, glove, signal) =>
      checkedResult(
        name,
        renderDataSchema,
        await config.do(input, typedDisplay<P, R>(display, name, displayPropsSchema), glove, signal),
      ),
  };
  if (config.resolveSchema) tool.resolveSchema = config.resolveSchema;
  if (config.requiresPermission !== undefined) tool.requiresPermission = config.requiresPermission;
  if (config.unAbortable !== undefined) tool.unAbortable = config.unAbortable;
  return tool;
}
