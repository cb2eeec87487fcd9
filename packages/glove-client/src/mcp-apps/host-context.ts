import type { McpAppHostOptions, McpAppSlotProps, McpAppTheme } from "./types.js";

/** The MCP Apps protocol version this host speaks. */
export const MCP_APPS_PROTOCOL_VERSION = "2026-01-26";

function preferredTheme(): McpAppTheme {
  return typeof matchMedia === "function" && matchMedia("(prefers-color-scheme: dark)").matches ? "dark" : "light";
}

/** What the app learns of its host: theme and styles, size limits, locale, and the tool that showed it. */
export function hostContext(app: McpAppSlotProps, options: McpAppHostOptions, width: number): Record<string, unknown> {
  const { title, description } = app.tool;
  return {
    toolInfo: {
      tool: {
        name: app.tool.name,
        inputSchema: app.tool.inputSchema,
        ...(title ? { title } : {}),
        ...(description ? { description } : {}),
      },
    },
    theme: options.theme ?? preferredTheme(),
    ...(options.styles ? { styles: { variables: options.styles } } : {}),
    displayMode: "inline",
    availableDisplayModes: ["inline"],
    containerDimensions: { width, maxHeight: maxHeightOf(options) },
    ...(typeof navigator === "object" ? { locale: navigator.language } : {}),
    timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone,
    platform: "web",
    userAgent: "glove-react",
  };
}

export function maxHeightOf(options: McpAppHostOptions): number {
  return options.maxHeight !== undefined && options.maxHeight > 0 ? options.maxHeight : 1200;
}
