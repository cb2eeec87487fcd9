import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { RequestHandlerExtra } from "@modelcontextprotocol/sdk/shared/protocol.js";
import {
  ElicitResultSchema,
  RootsListChangedNotificationSchema,
  type CallToolResult,
  type ServerNotification,
  type ServerRequest,
} from "@modelcontextprotocol/sdk/types.js";
import { startSdkHttpServer, type SdkHttpServer } from "../support/sdk-http-server.js";

/** What the server saw of its client: capabilities declared and roots/list_changed received. */
export interface FeatureServerLog {
  capabilities: Array<Record<string, unknown> | undefined>;
  rootsChanged: number;
}

const text = (t: string, isError = false): CallToolResult => ({
  content: [{ type: "text", text: t }],
  ...(isError ? { isError } : {}),
});

type ToolExtra = RequestHandlerExtra<ServerRequest, ServerNotification>;

/** A read-only tool whose answer is `run`'s text; a refused client request becomes an error result `${failure}: …`. */
function featureTool(
  mcp: McpServer,
  name: string,
  description: string,
  failure: string,
  run: (extra: ToolExtra) => Promise<string>,
): void {
  mcp.registerTool(
    name,
    { description, annotations: { readOnlyHint: true } },
    async (extra): Promise<CallToolResult> => {
      try {
        return text(await run(extra));
      } catch (error) {
        return text(`${failure}: ${(error as Error).message}`, true);
      }
    },
  );
}

/** A real SDK McpServer whose tools use the client features: elicitation, sampling and roots. */
export function buildFeatureServer(log: FeatureServerLog): McpServer {
  const mcp = new McpServer({ name: "feature-server", version: "1.0.0" });
  mcp.server.oninitialized = () => {
    log.capabilities.push(mcp.server.getClientCapabilities() as Record<string, unknown> | undefined);
  };
  mcp.server.setNotificationHandler(RootsListChangedNotificationSchema, () => {
    log.rootsChanged++;
  });
  featureTool(mcp, "book_table", "Books a table; asks the user for the details.", "elicitation failed", async () => {
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
    if (answer.action !== "accept") return `no booking: ${answer.action}`;
    const c = answer.content ?? {};
    return `booked for ${String(c.name)}, ${String(c.guests)} guests, vegetarian=${String(c.vegetarian)}`;
  });
  featureTool(
    mcp,
    "quick_form",
    "Asks for a colour but gives up after 300 ms.",
    "elicitation failed",
    async (extra) => {
      // The first request of the session: id 0, whose cancellation the SDK client drops.
      const answer = await extra.sendRequest(
        {
          method: "elicitation/create",
          params: {
            message: "Quick, a colour?",
            requestedSchema: { type: "object", properties: { colour: { type: "string" } } },
          },
        },
        ElicitResultSchema,
        { timeout: 300 },
      );
      return `answered: ${answer.action}`;
    },
  );
  featureTool(mcp, "summarize", "Summarises a fixed text with the client's model.", "sampling refused", async () => {
    const result = await mcp.server.createMessage({
      messages: [{ role: "user", content: { type: "text", text: "Summarise: the cat sat on the mat." } }],
      systemPrompt: "You summarise in five words.",
      maxTokens: 50,
    });
    const content = result.content as { type: string; text?: string };
    return `summary (${result.model}): ${content.text ?? ""}`;
  });
  featureTool(mcp, "list_roots", "Lists the client's roots.", "roots failed", async () => {
    const { roots } = await mcp.server.listRoots();
    return JSON.stringify(roots);
  });
  return mcp;
}

/** The feature server on Streamable HTTP at 127.0.0.1, with its log. */
export async function startFeatureServer(): Promise<SdkHttpServer & { log: FeatureServerLog }> {
  const log: FeatureServerLog = { capabilities: [], rootsChanged: 0 };
  const server = await startSdkHttpServer(() => buildFeatureServer(log));
  return Object.assign(server, { log });
}
