import type { ReactNode } from "react";
import type { SlotRenderer, SlotRenderProps } from "../types/tool.js";
import { McpAppFrame } from "./mcp-app-frame.js";
import type { McpAppHostOptions, McpAppSlotProps } from "./types.js";

/** The renderer name glove-mcp gives an MCP App's slot. */
export const MCP_APP_RENDERER = "mcp_app";

/**
 * A slot renderer for MCP Apps with the page's handlers: register it as
 * `renderers={{ [MCP_APP_RENDERER]: mcpAppRenderer({ callTool, sendMessage }) }}`. Create it once
 * (module scope or `useMemo`): a new renderer each render remounts the app.
 */
export function mcpAppRenderer(options: McpAppHostOptions = {}): SlotRenderer {
  return function McpAppSlot({ props, slot }: SlotRenderProps): ReactNode {
    // Slots named "mcp_app" carry glove-mcp's McpAppSlotInput.
    return <McpAppFrame app={props as McpAppSlotProps} appKey={slot.id} {...options} />;
  };
}

/**
 * The default `mcp_app` renderer: shows the app, sized and themed, with its tool input and
 * result; its tool calls and messages are refused until the page registers `mcpAppRenderer`.
 */
export const McpAppView: SlotRenderer = mcpAppRenderer();
