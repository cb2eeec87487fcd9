import type { McpTool } from "../connect.js";

/** Who may call a tool that has an app: the model, the app's UI, or both (the default). */
export type McpAppVisibility = "model" | "app";

/** The MIME type of an MCP App's HTML resource. */
export const MCP_APP_MIME_TYPE = "text/html;profile=mcp-app";

/**
 * The client capability glove-mcp announces (`capabilities.extensions`): servers that check it
 * attach their apps only for hosts that show them, and glove-mcp bridges every app as a slot.
 */
export const MCP_APPS_EXTENSION = { "io.modelcontextprotocol/ui": { mimeTypes: [MCP_APP_MIME_TYPE] } } as const;

function uiMeta(tool: McpTool): Record<string, unknown> | undefined {
  const ui = tool._meta?.ui;
  return ui !== null && typeof ui === "object" && !Array.isArray(ui) ? (ui as Record<string, unknown>) : undefined;
}

/** The `ui://` resource of a tool's app (`_meta.ui.resourceUri`, or the older flat `_meta["ui/resourceUri"]`). */
export function appResourceUri(tool: McpTool): string | undefined {
  const uri = uiMeta(tool)?.resourceUri ?? tool._meta?.["ui/resourceUri"];
  return typeof uri === "string" && uri.startsWith("ui://") ? uri : undefined;
}

/** `_meta.ui.visibility`; absent or malformed means both. */
export function appVisibility(tool: McpTool): readonly McpAppVisibility[] {
  const visibility = uiMeta(tool)?.visibility;
  if (!Array.isArray(visibility)) return ["model", "app"];
  return visibility.filter((v): v is McpAppVisibility => v === "model" || v === "app");
}

/** Offered to the model: every tool whose visibility includes "model". */
export function visibleToModel(tool: McpTool): boolean {
  return appVisibility(tool).includes("model");
}

/** Callable from its server's app UI: every tool whose visibility includes "app". */
export function visibleToApp(tool: McpTool): boolean {
  return appVisibility(tool).includes("app");
}
