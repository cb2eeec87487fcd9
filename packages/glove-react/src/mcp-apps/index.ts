export { McpAppFrame, type McpAppFrameProps } from "./mcp-app-frame.js";
export { mcpAppRenderer, McpAppView, MCP_APP_RENDERER } from "./mcp-app-renderer.js";
export { McpAppHost, useMcpAppHost } from "./mcp-app-host.js";
export { appCsp, appDocument, McpAppHostBridge, MCP_APPS_PROTOCOL_VERSION } from "glove-client/mcp-apps";
export type {
  McpAppCsp,
  McpAppHostOptions,
  McpAppSlotProps,
  McpAppTheme,
  McpAppToolCall,
  McpAppToolResult,
} from "glove-client/mcp-apps";
