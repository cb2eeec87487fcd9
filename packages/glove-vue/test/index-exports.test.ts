import { describe, expect, it } from "vitest";
import * as client from "glove-client";
import * as vue from "glove-vue";

describe("glove-vue's exports", () => {
  it("are the composable, the components, the tool helpers and glove-client's own objects", () => {
    expect(Object.keys(vue).sort()).toEqual(
      [
        "useGlove",
        "GloveClient",
        "useGloveClient",
        "GloveRender",
        "PermissionPrompt",
        "permissionPrompt",
        "unknownRenderer",
        "slotRenderProps",
        "DefaultMessage",
        "DefaultStreaming",
        "DefaultInput",
        "CompactionMarker",
        "visibleSlots",
        "strategyOf",
        "GloveSessionStore",
        "DisplayPropsError",
        "ServerRequestError",
        "defineTool",
        "defineToolView",
        "McpAppFrame",
        "McpAppHost",
        "provideMcpAppHost",
        "useMcpAppHost",
        "mcpAppRenderer",
        "MCP_APP_RENDERER",
        "MCP_APPS_PROTOCOL_VERSION",
      ].sort(),
    );
    // The engine is glove-client's very class, so a store made outside Vue is the same kind.
    expect(vue.GloveSessionStore).toBe(client.GloveSessionStore);
  });
});
