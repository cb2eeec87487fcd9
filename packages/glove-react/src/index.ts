"use client";
/**
 * glove-react — the React side of Glove. Browser-safe: no `node:` import anywhere; browser
 * globals are only touched in effects and event handlers, so server rendering is safe too.
 */
export type * from "./types/index.js";

export { useGlove } from "./react/use-glove.js";
export type { UseGloveConfig, UseGloveReturn } from "./react/use-glove-config.js";
export { GloveClient } from "./react/glove-client.js";
export type { GloveClientConfig } from "./react/glove-client.js";
export { GloveProvider, useGloveClient } from "./react/glove-provider.js";
export { Render } from "./react/render.js";
export type { RenderProps, RenderStrategy, ToolStatusRenderProps, SlotContainerRenderProps } from "./react/render.js";
export {
  PermissionPrompt,
  UnknownRenderer,
  DefaultMessage,
  DefaultStreaming,
  DefaultInput,
  CompactionMarker,
} from "./react/default-renderers.js";
export type { MessageRenderProps, StreamingRenderProps, InputRenderProps } from "./react/default-renderers.js";
export { visibleSlots, strategyOf } from "./react/visibility.js";

export { defineTool } from "./tools/define-tool.js";
export type { DefineToolConfig, RenderDataOf, ResultDataOf, ToolReturnFor } from "./tools/define-tool.js";
export { defineToolView } from "./tools/define-tool-view.js";
export type { DefineToolViewConfig, ToolSchemas } from "./tools/define-tool-view.js";
export {
  McpAppFrame,
  McpAppHost,
  useMcpAppHost,
  McpAppView,
  mcpAppRenderer,
  MCP_APP_RENDERER,
  MCP_APPS_PROTOCOL_VERSION,
} from "./mcp-apps/index.js";
export type {
  McpAppCsp,
  McpAppFrameProps,
  McpAppHostOptions,
  McpAppSlotProps,
  McpAppTheme,
  McpAppToolCall,
  McpAppToolResult,
} from "./mcp-apps/index.js";
export { DisplayPropsError, ServerRequestError } from "./errors.js";

// The engines behind the hook, for tests, non-React UIs and advanced setups.
export { GloveStore } from "./state/glove-store.js";
export type { GloveStoreOptions } from "./state/glove-store.js";
export { FrameBatcher, nextFrame } from "./state/frame-batcher.js";
export type { FrameScheduler } from "./state/frame-batcher.js";
export { reduce } from "./state/reducer.js";
export { initialState } from "./state/initial-state.js";
export { buildTimeline } from "./state/timeline.js";
export { LocalSession } from "./local/local-session.js";
export type { LocalSessionOptions, PersistSessionOptions } from "./local/local-options.js";
export { PersistedStore } from "./local/persisted-store.js";
export type { KeyValueStorage } from "./local/persisted-store.js";
export { ServerSession } from "./server/server-session.js";
export type { ServerSessionOptions } from "./server/server-session.js";
export type { ServerConnectionOptions, HeadersOption } from "./server/server-api.js";
export type { BackoffOptions } from "./server/backoff.js";
export { backoffDelay } from "./server/backoff.js";
export { SseParser } from "./server/sse-reader.js";
export type { SseFrame } from "./server/sse-reader.js";
