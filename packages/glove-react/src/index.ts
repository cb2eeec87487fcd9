"use client";
/**
 * glove-react — the React side of Glove, a binding on glove-client (the sessions, the state and
 * the transports, framework-free). Browser-safe: no `node:` import anywhere; browser
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
export { visibleSlots, strategyOf } from "glove-client";

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
export { DisplayPropsError, ServerRequestError } from "glove-client";

// The engines behind the hook (glove-client's), for tests, non-React UIs and advanced setups.
export {
  GloveStore,
  FrameBatcher,
  nextFrame,
  reduce,
  initialState,
  buildTimeline,
  LocalSession,
  PersistedStore,
  ServerSession,
  backoffDelay,
  SseParser,
} from "glove-client";
export type {
  GloveStoreOptions,
  FrameScheduler,
  LocalSessionOptions,
  PersistSessionOptions,
  KeyValueStorage,
  ServerSessionOptions,
  ServerConnectionOptions,
  HeadersOption,
  BackoffOptions,
  SseFrame,
} from "glove-client";
