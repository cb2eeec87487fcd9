/** glove-server: Glove agents over HTTP + Server-Sent Events (the daemon mode). */
export { createGloveServer } from "./create-glove-server.js";
export type { GloveServer } from "./create-glove-server.js";
export type { GloveServerOptions, GloveServerLimits, GloveServerEventOptions } from "./options.js";
export type { ServerExtension, ExtensionContext, ExtensionTurns } from "./extensions/server-extension.js";
export { applyOverride, overrideGlove, type AgentOverride, type AgentVariant } from "./agents/agent-override.js";
export type { AgentContext, AgentFactory, AgentsOption } from "./agents/agent-source.js";
export type { Authenticate, Principal } from "./security/authenticate.js";
export type { ServerScale, ScaleContext, ScaleRuntime } from "./scale/server-scale.js";
export type {
  ConversationHandle,
  ConversationHosting,
  SlotAnswer,
  AbortOutcome,
} from "./conversations/conversation-handle.js";
export { HttpError } from "./errors.js";
export { MissingDependencyError } from "./optional/optional-import.js";
export type { RequestIssue } from "./errors.js";
export { listenNode } from "./http/node-listen.js";
export type { FetchHandler, ListenOptions, Listening } from "./http/node-listen.js";
export type { ConnectionLimits } from "./http/connection-limits.js";
export { sqliteStorage, SqliteCatalog } from "./storage/sqlite-storage.js";
export type { SqliteStorageOptions } from "./storage/sqlite-storage.js";
export { memoryStorage, MemoryCatalog } from "./storage/memory-storage.js";
export type { MemoryStorageOptions } from "./storage/memory-storage.js";
export type {
  ConversationCatalog,
  ConversationChanges,
  ConversationRecord,
  ConversationStats,
  LastTurnStatus,
  ServerStorage,
  StoreFactory,
} from "./storage/types.js";
export * from "./storage/inspect/index.js";
export { TurnTracing } from "./conversations/turn-tracing.js";
export type { TracedTurnEnd } from "./conversations/turn-trace-recorder.js";
export * from "./retention/index.js";
export type { WireSlot, SlotStatus } from "glove-core";
export { createModelRelay, RELAY_DEFAULT_LIMITS } from "./relay/index.js";
export type {
  ModelRelay,
  ModelRelayOptions,
  RelayLimits,
  RelayAuthenticate,
  RelayPrincipal,
  RelayProviderFactory,
  RelayAdapterOptions,
  RelayRequestBody,
  RelayToolSpec,
  RelayErrorPayload,
  RelayErrorBody,
} from "./relay/index.js";
