import { createContext, useContext, type ReactNode } from "react";
import type { McpAppHostOptions } from "glove-client/mcp-apps";

const McpAppHostContext = createContext<McpAppHostOptions>({});

/**
 * What the MCP Apps below may do (tool calls, messages) and how they look (theme, styles): read
 * by the default `mcp_app` renderer, so wrapping `<Render>` is enough. Changing a value updates
 * the running apps (`host-context-changed`) without reloading them.
 */
export function McpAppHost({ children, ...options }: McpAppHostOptions & { children?: ReactNode }): ReactNode {
  return <McpAppHostContext.Provider value={options}>{children}</McpAppHostContext.Provider>;
}

/** The options of the nearest `McpAppHost` (none outside one). */
export function useMcpAppHost(): McpAppHostOptions {
  return useContext(McpAppHostContext);
}
