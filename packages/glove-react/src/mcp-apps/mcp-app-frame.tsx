import { useLayoutEffect, useRef, useState, type ReactNode } from "react";
import { appCsp, appDocument, McpAppHostBridge, maxHeightOf } from "glove-client/mcp-apps";
import type { McpAppHostOptions, McpAppSlotProps } from "glove-client/mcp-apps";

/** Props of `McpAppFrame`: the slot's app and what the page lets it do. */
export interface McpAppFrameProps extends McpAppHostOptions {
  app: McpAppSlotProps;
  /**
   * What keeps the app loaded (the slot id): a new `app` object with the same key (a state
   * update, a snapshot after reconnecting) does not reload it. Default: the `app` object itself.
   */
  appKey?: string;
}

/** Before the app reports its size. */
const INITIAL_HEIGHT = 160;

/**
 * An MCP App in a sandboxed iframe: `allow-scripts` only (an opaque origin: no access to the
 * page, its cookies or storage, no top navigation, no popups), a CSP built from the resource's
 * metadata as the document's first element, and the host bridge on the frame's messages.
 */
export function McpAppFrame({ app, appKey, ...options }: McpAppFrameProps): ReactNode {
  const frame = useRef<HTMLIFrameElement>(null);
  const bridge = useRef<McpAppHostBridge | undefined>(undefined);
  const [height, setHeight] = useState(INITIAL_HEIGHT);
  const optionsRef = useRef(options);
  optionsRef.current = options;
  const appRef = useRef(app);
  appRef.current = app;

  // Layout effect: the bridge listens before the document is set, so the app's first message is heard.
  useLayoutEffect(() => {
    const element = frame.current;
    if (!element) return;
    const current = appRef.current;
    const host = new McpAppHostBridge(element, current, optionsRef.current, ({ height: next }) => {
      if (next !== undefined) setHeight(next);
    });
    bridge.current = host;
    host.start();
    element.srcdoc = appDocument(current.resource.html, appCsp(current.resource.csp));
    return () => {
      host.stop();
      bridge.current = undefined;
    };
  }, [appKey ?? app]);

  useLayoutEffect(() => {
    bridge.current?.update(options);
  });

  const bordered = app.resource.prefersBorder !== false;
  return (
    <iframe
      ref={frame}
      title={app.tool.title ?? `${app.server.name}: ${app.tool.name}`}
      sandbox="allow-scripts"
      referrerPolicy="no-referrer"
      data-glove-role="mcp-app"
      data-mcp-app={app.resource.uri}
      style={{
        display: "block",
        width: "100%",
        height: Math.min(height, maxHeightOf(options)),
        border: bordered ? "1px solid rgba(127, 127, 127, 0.35)" : "0",
        borderRadius: bordered ? 8 : 0,
        background: "transparent",
        colorScheme: options.theme ?? "normal",
      }}
    />
  );
}
