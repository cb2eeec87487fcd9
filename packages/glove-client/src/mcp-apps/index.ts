/**
 * glove-client/mcp-apps — the host side of MCP Apps without a UI framework: the sandboxed
 * iframe's document and CSP, and the bridge that answers an app's JSON-RPC over postMessage.
 * glove-react's `<McpAppFrame>` is this bridge in a React component.
 */
export { McpAppHostBridge } from "./host-bridge.js";
export type { SizeListener } from "./host-bridge.js";
export { appCsp, appDocument } from "./app-csp.js";
export { MCP_APPS_PROTOCOL_VERSION, maxHeightOf } from "./host-context.js";
export { MCP_APP_RENDERER } from "./renderer-name.js";
export type {
  McpAppCsp,
  McpAppHostOptions,
  McpAppSlotProps,
  McpAppTheme,
  McpAppToolCall,
  McpAppToolResult,
} from "./types.js";
