import { PERMISSION_REQUEST_RENDERER } from "glove-core/display-manager";
import type { SlotRenderer, ToolResultRenderer, ToolView } from "../types/tool.js";
import { MCP_APP_RENDERER } from "glove-client/mcp-apps";
import { permissionPrompt } from "./default-renderers.js";
import { lazyMcpAppView } from "../mcp-apps/lazy-mcp-app-view.js";

export interface RendererMap {
  slots: ReadonlyMap<string, SlotRenderer>;
  results: ReadonlyMap<string, ToolResultRenderer>;
}

/**
 * Slot renderers by name: the default permission prompt and MCP App view, then each tool's `render` under the
 * tool's name (the name its slots carry by default), then explicit `renderers`, later ones winning.
 */
export function buildRendererMap(
  tools: readonly ToolView[],
  extra: Record<string, SlotRenderer> | undefined,
): RendererMap {
  const slots = new Map<string, SlotRenderer>([
    [PERMISSION_REQUEST_RENDERER, permissionPrompt],
    [MCP_APP_RENDERER, lazyMcpAppView],
  ]);
  const results = new Map<string, ToolResultRenderer>();
  for (const tool of tools) {
    if (tool.render) slots.set(tool.name, tool.render);
    if (tool.renderResult) results.set(tool.name, tool.renderResult);
  }
  for (const [name, render] of Object.entries(extra ?? {})) slots.set(name, render);
  return { slots, results };
}
