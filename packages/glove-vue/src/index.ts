/**
 * glove-vue — the Vue 3 side of Glove, a binding on glove-client (the sessions, the state and the
 * transports, framework-free). Components are render functions (no SFC compiler needed to use or
 * build the package). Browser-safe: no `node:` import; browser globals are only touched once a
 * component mounts, so `vue/server-renderer` renders it without a `window`.
 */
export type * from "./types/index.js";

export { useGlove } from "./vue/use-glove.js";
export type { UseGloveConfig, UseGloveReturn } from "./vue/use-glove-config.js";
export { GloveClient, useGloveClient } from "./vue/glove-client.js";
export type { GloveClientConfig } from "./vue/glove-client.js";
export { GloveRender } from "./vue/glove-render.js";
export type { GloveRenderSource, ToolStatusRenderProps, SlotContainerRenderProps } from "./vue/glove-render.js";
export type { RenderStrategy } from "glove-client";
export {
  PermissionPrompt,
  permissionPrompt,
  unknownRenderer,
  slotRenderProps,
  DefaultMessage,
  DefaultStreaming,
  DefaultInput,
  CompactionMarker,
} from "./vue/default-renderers.js";
export type { MessageRenderProps, StreamingRenderProps, InputRenderProps } from "./vue/default-renderers.js";
export { visibleSlots, strategyOf, GloveSessionStore, DisplayPropsError, ServerRequestError } from "glove-client";

export {
  McpAppFrame,
  McpAppHost,
  provideMcpAppHost,
  useMcpAppHost,
  mcpAppRenderer,
  MCP_APP_RENDERER,
  MCP_APPS_PROTOCOL_VERSION,
} from "./mcp-apps/index.js";
export type {
  McpAppCsp,
  McpAppHostOptions,
  McpAppSlotProps,
  McpAppTheme,
  McpAppToolCall,
  McpAppToolResult,
} from "./mcp-apps/index.js";

export { defineTool } from "./tools/define-tool.js";
export type { DefineToolConfig, RenderDataOf, ResultDataOf, ToolReturnFor } from "./tools/define-tool.js";
export { defineToolView } from "./tools/define-tool-view.js";
export type { DefineToolViewConfig, ToolSchemas } from "./tools/define-tool-view.js";
