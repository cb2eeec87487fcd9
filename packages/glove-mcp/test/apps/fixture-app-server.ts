/**
 * A small MCP Apps server built with the SDK: an app whose resource travels base64-encoded with
 * CSP metadata, an app-only tool, a model-only tool, and a tool whose "app" is not mcp-app HTML.
 */
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";

export const BOARD_URI = "ui://fixture/board.html";
export const BROKEN_URI = "ui://fixture/broken.html";
export const BOARD_HTML =
  "<!doctype html><html><head><title>Board</title></head><body><p id=board>board app</p></body></html>";

/** What the fixture's tools were called with, in order. */
export interface FixtureCalls {
  calls: Array<{ tool: string; args: unknown }>;
}

export function buildFixtureAppServer(seen: FixtureCalls, html: string = BOARD_HTML): McpServer {
  const server = new McpServer({ name: "fixture-apps", version: "1.0.0" });
  const record = (tool: string, args: unknown) => seen.calls.push({ tool, args });
  server.registerTool(
    "show_board",
    { description: "Shows the board", inputSchema: { title: z.string() }, _meta: { ui: { resourceUri: BOARD_URI } } },
    async (args) => {
      record("show_board", args);
      return {
        content: [{ type: "text", text: `board ${args.title}` }],
        structuredContent: { title: args.title, cards: 3 },
      };
    },
  );
  server.registerTool(
    "refresh",
    {
      description: "Refreshes the board (app only)",
      inputSchema: { page: z.number().optional() },
      _meta: { ui: { resourceUri: BOARD_URI, visibility: ["app"] } },
    },
    async (args) => {
      record("refresh", args);
      return { content: [{ type: "text", text: `refreshed ${args.page ?? 1}` }] };
    },
  );
  server.registerTool(
    "peek",
    {
      description: "Reads the board (read-only, app only)",
      annotations: { readOnlyHint: true },
      _meta: { ui: { resourceUri: BOARD_URI, visibility: ["app"] } },
    },
    async () => {
      record("peek", {});
      return { content: [{ type: "text", text: "peeked" }] };
    },
  );
  server.registerTool("secret", { description: "Model only", _meta: { ui: { visibility: ["model"] } } }, async () => {
    record("secret", {});
    return { content: [{ type: "text", text: "secret" }] };
  });
  server.registerTool(
    "broken",
    { description: "An app that is not mcp-app HTML", _meta: { ui: { resourceUri: BROKEN_URI } } },
    async () => {
      record("broken", {});
      return { content: [{ type: "text", text: "broken ran" }] };
    },
  );
  // What the client announced about MCP Apps (servers may attach apps only for hosts that show them).
  server.registerTool(
    "host_support",
    { description: "Echoes the client's MCP Apps capability", annotations: { readOnlyHint: true } },
    async () => ({
      content: [{ type: "text", text: JSON.stringify(server.server.getClientCapabilities()?.extensions ?? null) }],
    }),
  );
  server.registerResource("board", BOARD_URI, { mimeType: "text/html;profile=mcp-app" }, async () => ({
    contents: [
      {
        uri: BOARD_URI,
        mimeType: "text/html;profile=mcp-app",
        blob: Buffer.from(html, "utf8").toString("base64"),
        _meta: {
          ui: {
            csp: { connectDomains: ["https://api.example.com", 7], resourceDomains: ["https://cdn.example.com"] },
            permissions: { clipboardWrite: {}, camera: "yes" },
            prefersBorder: true,
          },
        },
      },
    ],
  }));
  server.registerResource("broken", BROKEN_URI, { mimeType: "text/plain" }, async () => ({
    contents: [{ uri: BROKEN_URI, mimeType: "text/plain", text: "not an app" }],
  }));
  return server;
}
