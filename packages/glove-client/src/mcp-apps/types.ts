/**
 * The MCP Apps slot as glove-mcp pushes it (renderer "mcp_app"), and what a page plugs into the
 * host bridge. The wire shape is restated here so the browser bundle needs nothing of glove-mcp.
 */

/** Origins an app declares it needs; the host turns them into the iframe's CSP. */
export interface McpAppCsp {
  connectDomains?: string[];
  resourceDomains?: string[];
  frameDomains?: string[];
  baseUriDomains?: string[];
}

/** A tool result as MCP sends it (`ui/notifications/tool-result` carries it unchanged). */
export interface McpAppToolResult {
  content: Array<{ type: string; [key: string]: unknown }>;
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
  [key: string]: unknown;
}

/** The props of an `mcp_app` slot. */
export interface McpAppSlotProps {
  server: { id: string; name: string };
  tool: {
    name: string;
    bridgedName: string;
    title?: string;
    description?: string;
    inputSchema: Record<string, unknown>;
  };
  resource: { uri: string; mimeType: string; html: string; csp?: McpAppCsp; prefersBorder?: boolean };
  toolInput: Record<string, unknown>;
  toolResult: McpAppToolResult;
}

/** An app's `tools/call`, with the slot it came from (its server is `app.server.id`). */
export interface McpAppToolCall {
  app: McpAppSlotProps;
  name: string;
  arguments: Record<string, unknown>;
}

/** The host's colour scheme, sent to the app in its host context. */
export type McpAppTheme = "light" | "dark";

/** What the page lets apps do. Without a handler the app's request is refused (the app is told). */
export interface McpAppHostOptions {
  /**
   * Runs an app's `tools/call` on its own server — on the host that holds the MCP connection,
   * where glove-mcp's `callAppTool` checks visibility and the Glove's permissions. Reject to refuse.
   */
  callTool?: (call: McpAppToolCall) => Promise<McpAppToolResult>;
  /** Adds the app's `ui/message` to the conversation as the user's message (its text blocks, joined). */
  sendMessage?: (text: string, app: McpAppSlotProps) => void | Promise<void>;
  /** Default: the user's `prefers-color-scheme`. */
  theme?: McpAppTheme;
  /** CSS variables of the MCP Apps theming vocabulary (`--color-background-primary`…). */
  styles?: Record<string, string>;
  /** The tallest the frame grows to when the app reports its size. Default 1200 px. */
  maxHeight?: number;
  /** Receives the app's `notifications/message` log entries. Default: dropped. */
  onLog?: (entry: { level?: string; data?: unknown }, app: McpAppSlotProps) => void;
}
