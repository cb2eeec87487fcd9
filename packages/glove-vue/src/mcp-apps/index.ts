export { McpAppFrame } from "./mcp-app-frame.js";
export { mcpAppRenderer } from "./mcp-app-renderer.js";
export { McpAppHost, provideMcpAppHost, useMcpAppHost } from "./mcp-app-host.js";
export { MCP_APP_RENDERER, MCP_APPS_PROTOCOL_VERSION } from "glove-client/mcp-apps";
export type {
  McpAppCsp,
  McpAppHostOptions,
  McpAppSlotProps,
  McpAppTheme,
  McpAppToolCall,
  McpAppToolResult,
} from "glove-client/mcp-apps";
