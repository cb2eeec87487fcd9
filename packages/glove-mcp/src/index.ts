export type { McpAdapter, McpCatalogueEntry, McpStdioCommand } from "./types.js";
export { connectMcp, isAuthError, McpAuthError } from "./connect.js";
export type { ConnectMcpOptions, McpConnection, McpTool, McpTransportKind } from "./connect.js";
export { bridgeMcpTool, bridgeMcpTools, bridgedToolName, joinContentText, MCP_NAMESPACE_SEPARATOR } from "./bridge.js";
export {
  discoverySubAgent,
  matchCatalogue,
  mountMcp,
  McpSession,
  DISCOVERY_SUBAGENT_NAME,
  MCP_PICKER_RENDERER,
} from "./mount.js";
export type { AmbiguityPolicy, DiscoverySubAgentConfig, McpMount, McpPickerInput, MountMcpConfig } from "./mount.js";
