import { describe, expect, it } from "vitest";
import * as client from "glove-client";
import * as react from "glove-react";

describe("glove-react's exports", () => {
  it("are the same names as before glove-client held the engines", () => {
    expect(Object.keys(react).sort()).toEqual(
      [
        "useGlove",
        "GloveClient",
        "GloveProvider",
        "useGloveClient",
        "Render",
        "PermissionPrompt",
        "UnknownRenderer",
        "DefaultMessage",
        "DefaultStreaming",
        "DefaultInput",
        "CompactionMarker",
        "visibleSlots",
        "strategyOf",
        "defineTool",
        "defineToolView",
        "McpAppFrame",
        "McpAppHost",
        "useMcpAppHost",
        "McpAppView",
        "mcpAppRenderer",
        "MCP_APP_RENDERER",
        "MCP_APPS_PROTOCOL_VERSION",
        "DisplayPropsError",
        "ServerRequestError",
        "GloveStore",
        "FrameBatcher",
        "nextFrame",
        "reduce",
        "initialState",
        "buildTimeline",
        "LocalSession",
        "PersistedStore",
        "ServerSession",
        "backoffDelay",
        "SseParser",
      ].sort(),
    );
  });

  it("re-export glove-client's engines and errors themselves (one class, so instanceof and isInstance agree)", () => {
    const shared = Object.entries(react).filter(([name]) => name in client);
    expect(shared.map(([name]) => name).sort()).toEqual(
      [
        "visibleSlots",
        "strategyOf",
        "DisplayPropsError",
        "ServerRequestError",
        "GloveStore",
        "FrameBatcher",
        "nextFrame",
        "reduce",
        "initialState",
        "buildTimeline",
        "LocalSession",
        "PersistedStore",
        "ServerSession",
        "backoffDelay",
        "SseParser",
      ].sort(),
    );
    for (const [name, value] of shared) expect(value, name).toBe((client as Record<string, unknown>)[name]);
  });
});
