import { lazy, Suspense, type ReactNode } from "react";
import type { SlotRenderProps } from "../types/tool.js";

// Fetched the first time an app is shown: pages without MCP Apps do not carry the host bridge.
const McpAppView = lazy(() => import("./mcp-app-renderer.js").then((module) => ({ default: module.McpAppView })));

/** The default `mcp_app` renderer of the renderer map: `McpAppView`, loaded on demand. */
export function LazyMcpAppView(props: SlotRenderProps): ReactNode {
  return (
    <Suspense fallback={null}>
      <McpAppView {...props} />
    </Suspense>
  );
}
