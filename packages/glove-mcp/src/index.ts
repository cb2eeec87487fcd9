export type { McpAdapter, McpCatalogueEntry, McpEntryInfo, McpStdioCommand } from "./types.js";
export { DEFAULT_MCP_SERVER_ID, toCatalogueEntry } from "./server-spec.js";
export type { McpHttpServer, McpServerInput, McpServerNaming, McpServerSpec, McpStdioServer } from "./server-spec.js";
export { MemoryMcpAdapter } from "./memory-adapter.js";
export type { MemoryMcpAdapterOptions } from "./memory-adapter.js";
export { connectMcp, DEFAULT_CONNECT_TIMEOUT_MS } from "./connect.js";
export { isAuthError, McpAuthError, McpConnectError, McpInsufficientScopeError, McpTimeoutError } from "./errors.js";
export { ScopeChallengeLog, type ScopeChallenge } from "./scope-challenge.js";
export { replaceBinaryPayloads } from "./binary-markers.js";
export type { ConnectMcpOptions, McpConnection, McpTool, McpTransportKind } from "./connect.js";
export {
  bridgeMcpTool,
  bridgeMcpTools,
  bridgedToolName,
  joinContentText,
  DEFAULT_CALL_TIMEOUT_MS,
  DEFAULT_MAX_TOTAL_TIMEOUT_MS,
  MCP_NAMESPACE_SEPARATOR,
} from "./bridge.js";
export type { BridgeMcpOptions, McpProgressEvent } from "./bridge.js";
export { McpSession } from "./session.js";
export type { McpConnectCallOptions, McpSessionOptions } from "./session.js";
export { discoverySubAgent, matchCatalogue, DISCOVERY_SUBAGENT_NAME, MCP_PICKER_RENDERER } from "./discovery.js";
export type { AmbiguityPolicy, DiscoverySubAgentConfig, McpPickerInput } from "./discovery.js";
export { mountMcp } from "./mount.js";
export type { McpMount, MountMcpConfig, MountMcpServerOptions } from "./mount.js";
export * from "./client-features/index.js";
export * from "./apps/index.js";
