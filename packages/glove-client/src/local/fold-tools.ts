import type { GloveFoldArgs, IGloveBuilder } from "glove-core";
import type { ToolConfig } from "../types/tool.js";

/** A ToolConfig as fold arguments: everything but the renderers, which stay in the UI. */
export function toFoldArgs(tool: ToolConfig): GloveFoldArgs<unknown> {
  const args: GloveFoldArgs<unknown> = {
    name: tool.name,
    description: tool.description,
    do: (input, display, glove, signal) => tool.do(input, display, glove, signal),
    replace: true,
  };
  if (tool.inputSchema) args.inputSchema = tool.inputSchema;
  if (tool.jsonSchema) args.jsonSchema = tool.jsonSchema;
  if (tool.requiresPermission !== undefined) args.requiresPermission = tool.requiresPermission;
  if (tool.unAbortable !== undefined) args.unAbortable = tool.unAbortable;
  if (tool.displayStrategy) args.displayStrategy = tool.displayStrategy;
  if (tool.resolveSchema) args.resolveSchema = tool.resolveSchema;
  return args;
}

/**
 * Folds (or re-folds, `replace: true`) the tools into the tab's Glove. A tool whose name a
 * built-in tool already has (e.g. `glove_update_tasks`) throws glove-core's DuplicateToolError.
 */
export function foldTools(glove: Pick<IGloveBuilder, "fold">, tools: readonly ToolConfig[]): void {
  for (const tool of tools) glove.fold(toFoldArgs(tool));
}
