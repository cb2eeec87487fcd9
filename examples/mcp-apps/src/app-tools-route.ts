/**
 * POST /api/mcp-apps/tools-call: an app's `tools/call`, sent by the page (glove-react's
 * `mcpAppRenderer({ callTool })`). It runs on the server of the app's slot, for the caller's own
 * conversation, through that conversation's Glove permission check: a gated tool shows the
 * permission prompt in the page (over SSE, like the model's calls) and runs only once allowed.
 */
import type { Glove } from "glove-core";
import { callAppTool, glovePermission, McpAppError, type McpAppErrorReason, type McpConnection } from "glove-mcp";
import type { Principal } from "glove-server";

export const APP_TOOLS_PATH = "/api/mcp-apps/tools-call";

/** The Glove of each open conversation and who owns it (filled by the agent factory). */
export type OpenConversations = Map<string, { glove: Glove; owner: string }>;

const MAX_BODY_BYTES = 256 * 1024;

const STATUS: Record<McpAppErrorReason, number> = {
  invalid_resource: 502,
  unknown_tool: 404,
  not_app_visible: 403,
  invalid_arguments: 400,
  denied: 403,
};

function json(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { "content-type": "application/json; charset=utf-8", "cache-control": "no-store" },
  });
}

interface ToolsCallBody {
  conversationId: string;
  server: string;
  name: string;
  arguments?: unknown;
}

async function readBody(request: Request): Promise<ToolsCallBody | undefined> {
  const text = await request.text();
  if (text.length > MAX_BODY_BYTES) return undefined;
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return undefined;
  }
  const b = body as Partial<ToolsCallBody> | null;
  if (
    !b ||
    typeof b !== "object" ||
    typeof b.conversationId !== "string" ||
    typeof b.server !== "string" ||
    typeof b.name !== "string"
  )
    return undefined;
  return { conversationId: b.conversationId, server: b.server, name: b.name, arguments: b.arguments };
}

export function appToolsRoute(options: {
  connections: ReadonlyMap<string, McpConnection>;
  conversations: OpenConversations;
  authenticate: (request: Request) => Principal | null | Promise<Principal | null>;
}) {
  return async (request: Request): Promise<Response> => {
    if (request.method !== "POST") return json(405, { error: "method_not_allowed", message: "POST a tools/call." });
    // Only this page may call: another site's script would send its own Origin.
    const origin = request.headers.get("origin");
    if (origin !== null && origin !== new URL(request.url).origin)
      return json(403, { error: "forbidden_origin", message: "Cross-origin calls are refused." });
    const principal = await options.authenticate(request);
    if (!principal) return json(401, { error: "unauthenticated", message: "Sign in first." });
    const body = await readBody(request);
    if (!body)
      return json(400, { error: "invalid_request", message: "Send JSON { conversationId, server, name, arguments }." });
    const open = options.conversations.get(body.conversationId);
    // Someone else's conversation is reported as missing, like glove-server does.
    if (!open || open.owner !== principal.id)
      return json(404, { error: "conversation_not_found", message: "No such open conversation." });
    const connection = options.connections.get(body.server);
    if (!connection)
      return json(404, { error: "server_not_found", message: `No MCP server ${JSON.stringify(body.server)}.` });
    try {
      const result = await callAppTool(
        connection,
        { name: body.name, arguments: body.arguments },
        { permission: glovePermission(open.glove), signal: request.signal },
      );
      return json(200, result);
    } catch (error) {
      if (McpAppError.isInstance(error))
        return json(STATUS[error.reason], { error: error.reason, message: error.message });
      return json(502, { error: "tool_failed", message: error instanceof Error ? error.message : String(error) });
    }
  };
}
