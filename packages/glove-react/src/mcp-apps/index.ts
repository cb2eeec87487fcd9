export { McpAppFrame, type McpAppFrameProps } from "./mcp-app-frame.js";
export { mcpAppRenderer, McpAppView, MCP_APP_RENDERER } from "./mcp-app-renderer.js";
export { McpAppHost, useMcpAppHost } from "./mcp-app-host.js";
export { appCsp, appDocument } from "./app-csp.js";
export { McpAppHostBridge } from "./host-bridge.js";
export { MCP_APPS_PROTOCOL_VERSION } from "./host-context.js";
export type {
  McpAppCsp,
  McpAppHostOptions,
  McpAppSlotProps,
  McpAppTheme,
  McpAppToolCall,
  McpAppToolResult,
} from "./types.js";
