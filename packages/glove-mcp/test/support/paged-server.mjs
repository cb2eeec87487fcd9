// A small MCP server on the SDK's low-level Server class whose tool list spans three pages,
// for testing that connectMcp reads tool lists to the end (server-everything lists one page).
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { CallToolRequestSchema, ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";

// Eight tools over three pages; "tool_6" becomes the same provider-safe name as "tool.6".
const tools = [...Array.from({ length: 7 }, (_, i) => `tool.${i}`), "tool_6"].map((name) => ({
  name,
  description: `Tool ${name}`,
  inputSchema: { type: "object", properties: {} },
}));
const PAGE = 3;

const server = new Server({ name: "paged", version: "1.0.0" }, { capabilities: { tools: {} } });
server.setRequestHandler(ListToolsRequestSchema, async (request) => {
  const start = Number(request.params?.cursor ?? 0);
  const next = start + PAGE;
  return { tools: tools.slice(start, next), ...(next < tools.length ? { nextCursor: String(next) } : {}) };
});
server.setRequestHandler(CallToolRequestSchema, async (request) => ({
  content: [{ type: "text", text: `called ${request.params.name}` }],
}));
await server.connect(new StdioServerTransport());
