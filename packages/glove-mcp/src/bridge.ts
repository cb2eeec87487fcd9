import type { GloveFoldArgs, ToolResultData } from "glove-core";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { isAuthError, messageOf, type McpConnection, type McpTool } from "./connect.js";

/** Separator between the entry id and the MCP tool name: regex-safe for every provider. */
export const MCP_NAMESPACE_SEPARATOR = "__";

/** `${namespace}__${tool}`, with characters providers reject replaced by "_" and cut to 64. */
export function bridgedToolName(namespace: string, toolName: string): string {
  return `${namespace}${MCP_NAMESPACE_SEPARATOR}${toolName}`.replace(/[^A-Za-z0-9_-]/g, "_").slice(0, 64);
}

type ContentItem = CallToolResult["content"][number];

/** What the model reads of an MCP content array: the text, with short markers for the rest. */
export function joinContentText(content: readonly ContentItem[]): string {
  const parts: string[] = [];
  for (const item of content) {
    switch (item.type) {
      case "text":
        parts.push(item.text);
        break;
      case "image":
        parts.push(`[image ${item.mimeType}]`);
        break;
      case "audio":
        parts.push(`[audio ${item.mimeType}]`);
        break;
      case "resource": {
        const r = item.resource;
        parts.push("text" in r && typeof r.text === "string" ? r.text : `[resource ${r.uri}${r.mimeType ? ` ${r.mimeType}` : ""}]`);
        break;
      }
      case "resource_link":
        parts.push(`[resource link ${item.uri}${item.name ? ` ${item.name}` : ""}]`);
        break;
      default:
        break;
    }
  }
  return parts.join("\n");
}

/**
 * Turns one MCP tool into a Glove fold: `${namespace}__${tool}`, the server's inputSchema as
 * `jsonSchema`, gated unless `serverMode` or the tool is annotated `readOnlyHint: true`.
 */
export function bridgeMcpTool(
  connection: McpConnection,
  tool: McpTool,
  serverMode: boolean,
): GloveFoldArgs<Record<string, unknown>> {
  const readOnly = tool.annotations?.readOnlyHint === true;
  return {
    name: bridgedToolName(connection.namespace, tool.name),
    description: tool.description ?? tool.annotations?.title ?? tool.title ?? tool.name,
    jsonSchema: tool.inputSchema as Record<string, unknown>,
    requiresPermission: serverMode ? false : !readOnly,
    async do(input, _display, _glove, signal): Promise<ToolResultData> {
      let result: CallToolResult;
      try {
        result = (await connection.client.callTool(
          { name: tool.name, arguments: input ?? {} },
          undefined,
          signal ? { signal } : undefined,
        )) as CallToolResult;
      } catch (error) {
        if (signal?.aborted) return { status: "aborted", data: null, message: "aborted" };
        if (isAuthError(error)) return { status: "error", message: "auth_expired", data: null };
        return { status: "error", message: messageOf(error), data: null };
      }
      const content = Array.isArray(result.content) ? result.content : [];
      const text = joinContentText(content);
      if (result.isError) {
        return { status: "error", message: text || `MCP tool ${tool.name} failed`, data: text || null, renderData: content };
      }
      const data = result.structuredContent !== undefined ? result.structuredContent : text;
      return { status: "success", data, renderData: content };
    },
  };
}

/**
 * Bridges every tool of a connection. Two MCP names that become one provider-safe name
 * (`a.b` and `a_b`, or a long shared prefix cut at 64) get `_2`, `_3`… so neither is lost.
 */
export function bridgeMcpTools(connection: McpConnection, serverMode: boolean): Array<GloveFoldArgs<Record<string, unknown>>> {
  const taken = new Set<string>();
  return connection.tools.map((tool) => {
    const fold = bridgeMcpTool(connection, tool, serverMode);
    let name = fold.name;
    for (let n = 2; taken.has(name); n++) name = `${fold.name.slice(0, 64 - `_${n}`.length)}_${n}`;
    taken.add(name);
    return name === fold.name ? fold : { ...fold, name };
  });
}
