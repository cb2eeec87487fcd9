/** The renderer name glove-mcp gives an MCP App's slot. */
export const MCP_APP_RENDERER = "mcp_app";
