import type { ReactNode } from "react";
import type { SlotRenderer, SlotRenderProps } from "../types/tool.js";
import { McpAppFrame } from "./mcp-app-frame.js";
import { useMcpAppHost } from "./mcp-app-host.js";
import type { McpAppHostOptions, McpAppSlotProps } from "glove-client/mcp-apps";

export { MCP_APP_RENDERER } from "glove-client/mcp-apps";

/**
 * A slot renderer for MCP Apps: the nearest `McpAppHost`'s options, overridden by `options`.
 * Usually `<McpAppHost>` around `<Render>` is all a page needs (the default renderer reads it);
 * register one of these to fix options for one renderer map. Create it once (module scope or
 * `useMemo`): a new renderer is a new component, which reloads the apps.
 */
export function mcpAppRenderer(options: McpAppHostOptions = {}): SlotRenderer {
  return function McpAppSlot({ props, slot }: SlotRenderProps): ReactNode {
    // Slots named "mcp_app" carry glove-mcp's McpAppSlotInput.
    const host = useMcpAppHost();
    return <McpAppFrame app={props as McpAppSlotProps} appKey={slot.id} {...host} {...options} />;
  };
}

/**
 * The default `mcp_app` renderer: shows the app, sized and themed, with its tool input and
 * result, using the nearest `McpAppHost`; without one, the app's tool calls and messages are refused.
 */
export const McpAppView: SlotRenderer = mcpAppRenderer();
