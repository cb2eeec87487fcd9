import { defineComponent, h, type PropType } from "vue";
import type { McpAppHostOptions, McpAppSlotProps } from "glove-client/mcp-apps";
import type { SlotRenderer } from "../types/tool.js";
import { McpAppFrame } from "./mcp-app-frame.js";
import { useMcpAppHost } from "./mcp-app-host.js";

/** One `mcp_app` slot: the provided host options, overridden by the renderer's own. */
export const McpAppSlot = defineComponent({
  name: "GloveMcpAppSlot",
  props: {
    app: { type: Object as PropType<McpAppSlotProps>, required: true },
    appKey: { type: String, required: true },
    options: { type: Object as PropType<McpAppHostOptions>, default: () => ({}) },
  },
  setup(props) {
    const host = useMcpAppHost();
    return () => h(McpAppFrame, { app: props.app, appKey: props.appKey, options: { ...host(), ...props.options } });
  },
});

/**
 * A slot renderer for MCP Apps with fixed options (over the provided ones). Usually
 * `provideMcpAppHost` above `<GloveRender>` is all a page needs: the default `mcp_app` renderer
 * reads it. Create it once (module scope): a new renderer is a new component, which reloads the apps.
 */
export function mcpAppRenderer(options: McpAppHostOptions = {}): SlotRenderer {
  // Slots named "mcp_app" carry glove-mcp's McpAppSlotInput.
  return ({ props, slot }) => h(McpAppSlot, { app: props as McpAppSlotProps, appKey: slot.id, options });
}
