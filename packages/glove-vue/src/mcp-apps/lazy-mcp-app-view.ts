import { defineAsyncComponent, h } from "vue";
import type { McpAppSlotProps } from "glove-client/mcp-apps";
import type { SlotRenderer } from "../types/tool.js";

// Fetched the first time an app is shown: pages without MCP Apps do not carry the host bridge.
const LazyMcpAppSlot = defineAsyncComponent(() => import("./mcp-app-renderer.js").then((module) => module.McpAppSlot));

/** The default `mcp_app` renderer of the renderer map: the app in its sandboxed frame, loaded on demand. */
export const lazyMcpAppView: SlotRenderer = ({ props, slot }) =>
  h(LazyMcpAppSlot, { app: props as McpAppSlotProps, appKey: slot.id });
