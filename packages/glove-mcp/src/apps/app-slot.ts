import type { DisplayManagerAdapter } from "glove-core";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import type { McpConnection, McpTool } from "../connect.js";
import { messageOf } from "../errors.js";
import { readAppResource, type McpAppResource } from "./app-resource.js";
import { appResourceUri } from "./tool-ui.js";

/** The renderer of an MCP App's display slot (glove-react's `mcpAppRenderer` draws it). */
export const MCP_APP_RENDERER = "mcp_app";

/** What an MCP App slot carries: everything a host needs to show the app and route its requests. */
export interface McpAppSlotInput {
  /** The server whose tool showed the app (its catalogue id is the tool namespace). */
  server: { id: string; name: string };
  /** The tool called: its MCP name, its name in Glove, and what the app's host context reports of it. */
  tool: {
    name: string;
    bridgedName: string;
    title?: string;
    description?: string;
    inputSchema: Record<string, unknown>;
  };
  resource: McpAppResource;
  /** The arguments of the call (`ui/notifications/tool-input`). */
  toolInput: Record<string, unknown>;
  /** The server's answer (`ui/notifications/tool-result`). */
  toolResult: CallToolResult;
}

/**
 * Shows a finished call's app as a display slot. The app is an extra view of the result: a
 * resource that cannot be read is reported through `onError` and the call's result stands.
 */
export async function showToolApp(
  display: DisplayManagerAdapter,
  call: {
    connection: McpConnection;
    tool: McpTool;
    bridgedName: string;
    input: Record<string, unknown>;
    result: CallToolResult;
  },
  onError: (error: unknown) => void = (error) => console.warn(`[glove-mcp] ${messageOf(error)}`),
): Promise<void> {
  const uri = appResourceUri(call.tool);
  if (!uri) return;
  const { connection, tool } = call;
  try {
    const resource = await readAppResource(connection, uri);
    const input: McpAppSlotInput = {
      server: { id: connection.namespace, name: connection.entry.name },
      tool: {
        name: tool.name,
        bridgedName: call.bridgedName,
        ...(tool.title ? { title: tool.title } : {}),
        ...(tool.description ? { description: tool.description } : {}),
        inputSchema: tool.inputSchema as Record<string, unknown>,
      },
      resource,
      toolInput: call.input,
      toolResult: call.result,
    };
    await display.pushAndForget({ renderer: MCP_APP_RENDERER, input });
  } catch (error) {
    onError(error);
  }
}
