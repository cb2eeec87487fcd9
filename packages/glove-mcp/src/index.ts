export type { McpAdapter, McpCatalogueEntry, McpStdioCommand } from "./types.js";
export { connectMcp, isAuthError, McpAuthError, McpConnectError } from "./connect.js";
export type { ConnectMcpOptions, McpConnection, McpTool, McpTransportKind } from "./connect.js";
export { bridgeMcpTool, bridgeMcpTools, bridgedToolName, joinContentText, MCP_NAMESPACE_SEPARATOR } from "./bridge.js";
export { McpSession } from "./session.js";
export { discoverySubAgent, matchCatalogue, DISCOVERY_SUBAGENT_NAME, MCP_PICKER_RENDERER } from "./discovery.js";
export type { AmbiguityPolicy, DiscoverySubAgentConfig, McpPickerInput } from "./discovery.js";
export { mountMcp } from "./mount.js";
export type { McpMount, MountMcpConfig } from "./mount.js";
