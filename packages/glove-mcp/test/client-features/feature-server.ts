import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { ElicitResultSchema, RootsListChangedNotificationSchema, type CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { startSdkHttpServer, type SdkHttpServer } from "../support/sdk-http-server.js";

/** What the server saw of its client: capabilities declared and roots/list_changed received. */
export interface FeatureServerLog {
  capabilities: Array<Record<string, unknown> | undefined>;
  rootsChanged: number;
}

const text = (t: string, isError = false): CallToolResult => ({ content: [{ type: "text", text: t }], ...(isError ? { isError } : {}) });

/** A real SDK McpServer whose tools use the client features: elicitation, sampling and roots. */
export function buildFeatureServer(log: FeatureServerLog): McpServer {
  const mcp = new McpServer({ name: "feature-server", version: "1.0.0" });
  mcp.server.oninitialized = () => {
    log.capabilities.push(mcp.server.getClientCapabilities() as Record<string, unknown> | undefined);
  };
  mcp.server.setNotificationHandler(RootsListChangedNotificationSchema, () => {
    log.rootsChanged++;
  });
  mcp.registerTool(
    "book_table",
    { description: "Books a table; asks the user for the details.", annotations: { readOnlyHint: true } },
    async (): Promise<CallToolResult> => {
      try {
        const answer = await mcp.server.elicitInput({
          message: "Who is the booking for?",
          requestedSchema: {
            type: "object",
            properties: {
              name: { type: "string", minLength: 1, description: "Guest name" },
              guests: { type: "integer", minimum: 1, maximum: 12 },
              vegetarian: { type: "boolean", default: false },
            },
            required: ["name", "guests"],
          },
        });
        if (answer.action !== "accept") return text(`no booking: ${answer.action}`);
        const c = answer.content ?? {};
        return text(`booked for ${String(c.name)}, ${String(c.guests)} guests, vegetarian=${String(c.vegetarian)}`);
      } catch (error) {
        return text(`elicitation failed: ${(error as Error).message}`, true);
      }
    },
  );
  mcp.registerTool(
    "quick_form",
    { description: "Asks for a colour but gives up after 300 ms.", annotations: { readOnlyHint: true } },
    async (extra): Promise<CallToolResult> => {
      try {
        // The first request of the session: id 0, whose cancellation the SDK client drops.
        const answer = await extra.sendRequest(
          { method: "elicitation/create", params: { message: "Quick, a colour?", requestedSchema: { type: "object", properties: { colour: { type: "string" } } } } },
          ElicitResultSchema,
          { timeout: 300 },
        );
        return text(`answered: ${answer.action}`);
      } catch (error) {
        return text(`elicitation failed: ${(error as Error).message}`, true);
      }
    },
  );
  mcp.registerTool(
    "summarize",
    { description: "Summarises a fixed text with the client's model.", annotations: { readOnlyHint: true } },
    async (): Promise<CallToolResult> => {
      try {
        const result = await mcp.server.createMessage({
          messages: [{ role: "user", content: { type: "text", text: "Summarise: the cat sat on the mat." } }],
          systemPrompt: "You summarise in five words.",
          maxTokens: 50,
        });
        const content = result.content as { type: string; text?: string };
        return text(`summary (${result.model}): ${content.text ?? ""}`);
      } catch (error) {
        return text(`sampling refused: ${(error as Error).message}`, true);
      }
    },
  );
  mcp.registerTool(
    "list_roots",
    { description: "Lists the client's roots.", annotations: { readOnlyHint: true } },
    async (): Promise<CallToolResult> => {
      try {
        const { roots } = await mcp.server.listRoots();
        return text(JSON.stringify(roots));
      } catch (error) {
        return text(`roots failed: ${(error as Error).message}`, true);
      }
    },
  );
  return mcp;
}

/** The feature server on Streamable HTTP at 127.0.0.1, with its log. */
export async function startFeatureServer(): Promise<SdkHttpServer & { log: FeatureServerLog }> {
  const log: FeatureServerLog = { capabilities: [], rootsChanged: 0 };
  const server = await startSdkHttpServer(() => buildFeatureServer(log));
  return Object.assign(server, { log });
}
