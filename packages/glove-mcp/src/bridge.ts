import type { GloveFoldArgs, ServerModeWithoutPolicy, ToolResultData } from "glove-core";
import { StreamableHTTPError } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ErrorCode, McpError, type CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { replaceBinaryPayloads } from "./binary-markers.js";
import { whileCalling } from "./call-displays.js";
import { showToolApp } from "./apps/app-slot.js";
import { visibleToModel } from "./apps/tool-ui.js";
import type { McpConnection, McpTool } from "./connect.js";
import { isAuthError, McpInsufficientScopeError, messageOf } from "./errors.js";

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
        parts.push(
          "text" in r && typeof r.text === "string"
            ? r.text
            : `[resource ${r.uri}${r.mimeType ? ` ${r.mimeType}` : ""}]`,
        );
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

/** Default per-call timeout: how long a call may go without a response or a progress notification. */
export const DEFAULT_CALL_TIMEOUT_MS = 60_000;
/** Default ceiling for one call however much progress it reports. */
export const DEFAULT_MAX_TOTAL_TIMEOUT_MS = 600_000;

/** A `notifications/progress` update of a running bridged tool call. */
export interface McpProgressEvent {
  /** The catalogue entry id. */
  entryId: string;
  /** The bridged (namespaced) tool name. */
  tool: string;
  progress: number;
  total?: number;
  message?: string;
}

/** Options of `bridgeMcpTool(s)`. */
export interface BridgeMcpOptions {
  /** Receives every progress notification of a running call. */
  onProgress?: (event: McpProgressEvent) => void;
}

/** The longest error text handed to the model; server bodies can be whole HTML pages. */
const MAX_ERROR_CHARS = 500;

function errorResult(
  connection: McpConnection,
  tool: McpTool,
  error: unknown,
  mark: number,
  timeoutMs: number,
): ToolResultData {
  const challenge = connection.scopeChallenges.since(mark);
  if (challenge || McpInsufficientScopeError.isInstance(error)) {
    const requiredScope =
      challenge?.scope ?? (McpInsufficientScopeError.isInstance(error) ? error.requiredScope : undefined);
    return {
      status: "error",
      message: "insufficient_scope",
      data: {
        ...(requiredScope ? { requiredScope } : {}),
        instruction: `The ${connection.entry.name} connection lacks a permission this tool needs; the user must authorize it again${requiredScope ? ` with scope "${requiredScope}"` : ""}.`,
      },
    };
  }
  if (isAuthError(error)) return { status: "error", message: "auth_expired", data: null };
  if (error instanceof McpError && error.code === ErrorCode.RequestTimeout) {
    return {
      status: "error",
      message: `MCP tool ${tool.name} timed out (no answer or progress within ${timeoutMs} ms, or over its total limit)`,
      data: null,
    };
  }
  if (error instanceof StreamableHTTPError && error.code !== undefined && error.code >= 400) {
    return { status: "error", message: `The MCP server answered HTTP ${error.code} to ${tool.name}`, data: null };
  }
  const message = messageOf(error);
  return {
    status: "error",
    message: message.length > MAX_ERROR_CHARS ? `${message.slice(0, MAX_ERROR_CHARS)}…` : message,
    data: null,
  };
}

/**
 * Turns one MCP tool into a Glove fold: `${namespace}__${tool}`, the server's inputSchema as
 * `jsonSchema`, gated unless the tool is annotated `readOnlyHint: true`. The Glove decides at call
 * time (decision 19): it asks the user, or in serverMode its permissionPolicy; a serverMode Glove
 * without a policy runs the tool without asking. Calls carry a progress token; each progress
 * notification restarts the entry's `timeoutMs`, up to `maxTotalTimeoutMs`. A server's elicitation
 * during the call is asked through the call's display; the call is durable (its questions stored,
 * re-sent to resume after a restart) only when annotated `readOnlyHint` or `idempotentHint` (decision 23).
 * A tool with an MCP App (`_meta.ui.resourceUri`) also pushes an `mcp_app` slot with the app, its
 * input and its result (decision 32).
 */
export function bridgeMcpTool(
  connection: McpConnection,
  tool: McpTool,
  options?: BridgeMcpOptions,
): GloveFoldArgs<Record<string, unknown>>;
/**
 * @deprecated Pass options only: the Glove's own `serverMode` and `permissionPolicy` now decide.
 * `false` keeps the old meaning "refuse in a serverMode Glove without a policy".
 */
export function bridgeMcpTool(
  connection: McpConnection,
  tool: McpTool,
  serverMode: boolean,
  options?: BridgeMcpOptions,
): GloveFoldArgs<Record<string, unknown>>;
export function bridgeMcpTool(
  connection: McpConnection,
  tool: McpTool,
  modeOrOptions?: boolean | BridgeMcpOptions,
  maybeOptions?: BridgeMcpOptions,
): GloveFoldArgs<Record<string, unknown>> {
  return bridgeOne(connection, tool, readBridgeArgs(modeOrOptions, maybeOptions));
}

function bridgeOne(
  connection: McpConnection,
  tool: McpTool,
  { options, withoutPolicy }: BridgeArgs,
): GloveFoldArgs<Record<string, unknown>> {
  const readOnly = tool.annotations?.readOnlyHint === true;
  // Resuming re-sends tools/call: only a call the server says a repeat changes nothing more.
  const repeatable = readOnly || tool.annotations?.idempotentHint === true;
  const name = bridgedToolName(connection.namespace, tool.name);
  const timeout = connection.entry.timeoutMs ?? DEFAULT_CALL_TIMEOUT_MS;
  const maxTotalTimeout = Math.max(timeout, connection.entry.maxTotalTimeoutMs ?? DEFAULT_MAX_TOTAL_TIMEOUT_MS);
  return {
    name,
    description: tool.description ?? tool.annotations?.title ?? tool.title ?? tool.name,
    jsonSchema: tool.inputSchema as Record<string, unknown>,
    requiresPermission: !readOnly,
    ...(readOnly ? {} : { serverModeWithoutPolicy: withoutPolicy }),
    ...(repeatable ? {} : { durable: false }),
    async do(input, display, _glove, signal): Promise<ToolResultData> {
      let result: CallToolResult;
      const mark = connection.scopeChallenges.mark();
      const { client } = connection;
      const call = () =>
        client.callTool({ name: tool.name, arguments: input ?? {} }, undefined, {
          ...(signal ? { signal } : {}),
          timeout,
          maxTotalTimeout,
          resetTimeoutOnProgress: true,
          // Passing onprogress is what makes the SDK send a progress token.
          onprogress: (p) =>
            options.onProgress?.({
              entryId: connection.namespace,
              tool: name,
              progress: p.progress,
              ...(p.total !== undefined ? { total: p.total } : {}),
              ...(p.message !== undefined ? { message: p.message } : {}),
            }),
        });
      try {
        // The server's elicitations during the call are asked through its display (call-displays.ts).
        result = (await whileCalling(client, display, call)) as CallToolResult;
      } catch (error) {
        if (signal?.aborted) return { status: "aborted", data: null, message: "aborted" };
        return errorResult(connection, tool, error, mark, timeout);
      }
      // A tool with an MCP App shows it beside its result (apps/app-slot.ts).
      await showToolApp(display, { connection, tool, bridgedName: name, input: input ?? {}, result });
      const content = Array.isArray(result.content) ? result.content : [];
      const text = joinContentText(content);
      if (result.isError) {
        return {
          status: "error",
          message: text || `MCP tool ${tool.name} failed`,
          data: text || null,
          renderData: content,
        };
      }
      if (result.structuredContent === undefined) return { status: "success", data: text, renderData: content };
      const data = replaceBinaryPayloads(result.structuredContent);
      // renderData keeps every byte: the content array, plus the structured content when markers replaced part of it.
      const renderData =
        data === result.structuredContent
          ? content
          : [...content, { type: "structured", structuredContent: result.structuredContent }];
      return { status: "success", data, renderData };
    },
  };
}

interface BridgeArgs {
  options: BridgeMcpOptions;
  withoutPolicy: ServerModeWithoutPolicy;
}

/** The options of either call form; the old positional `false` meant "refuse without a policy". */
function readBridgeArgs(
  modeOrOptions: boolean | BridgeMcpOptions | undefined,
  maybeOptions: BridgeMcpOptions | undefined,
): BridgeArgs {
  if (typeof modeOrOptions === "boolean") {
    return { options: maybeOptions ?? {}, withoutPolicy: modeOrOptions ? "allow" : "deny" };
  }
  return { options: modeOrOptions ?? {}, withoutPolicy: "allow" };
}

/**
 * Bridges every tool of a connection the model may call (all but app-only ones). Two MCP names that become one provider-safe name
 * (`a.b` and `a_b`, or a long shared prefix cut at 64) get `_2`, `_3`… so neither is lost.
 */
export function bridgeMcpTools(
  connection: McpConnection,
  options?: BridgeMcpOptions,
): Array<GloveFoldArgs<Record<string, unknown>>>;
/** @deprecated Pass options only; see `bridgeMcpTool`. */
export function bridgeMcpTools(
  connection: McpConnection,
  serverMode: boolean,
  options?: BridgeMcpOptions,
): Array<GloveFoldArgs<Record<string, unknown>>>;
export function bridgeMcpTools(
  connection: McpConnection,
  modeOrOptions?: boolean | BridgeMcpOptions,
  maybeOptions?: BridgeMcpOptions,
): Array<GloveFoldArgs<Record<string, unknown>>> {
  const args = readBridgeArgs(modeOrOptions, maybeOptions);
  const taken = new Set<string>();
  // Tools only an app may call (`_meta.ui.visibility: ["app"]`) are not the model's.
  return connection.tools.filter(visibleToModel).map((tool) => {
    const fold = bridgeOne(connection, tool, args);
    let name = fold.name;
    for (let n = 2; taken.has(name); n++) name = `${fold.name.slice(0, 64 - `_${n}`.length)}_${n}`;
    taken.add(name);
    return name === fold.name ? fold : { ...fold, name };
  });
}
