import {
  checkPermission,
  type GatedTool,
  type PermissionDecision,
  type PermissionPolicy,
  type StoreAdapter,
} from "glove-core";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { bridgedToolName, DEFAULT_CALL_TIMEOUT_MS } from "../bridge.js";
import type { McpConnection } from "../connect.js";
import { McpAppError } from "./app-errors.js";
import { visibleToApp } from "./tool-ui.js";

/** An app's `tools/call`: the tool (its MCP name on the app's own server) and its arguments. */
export interface McpAppToolRequest {
  name: string;
  arguments?: unknown;
}

/**
 * Decides whether an app's call of a gated tool may run. `tool.name` is the bridged name
 * (`${serverId}__${tool}`), so stored permissions and policies apply to the model's and the
 * app's calls alike.
 */
export type McpAppPermission = (
  tool: GatedTool,
  input: Record<string, unknown>,
  signal?: AbortSignal,
) => Promise<PermissionDecision>;

/** The part of a Glove whose permission check an app's calls go through. */
export interface PermissionCheckingGlove {
  readonly internals: {
    readonly executor: {
      checkPermission(
        tool: GatedTool,
        input: unknown,
        callId?: string,
        signal?: AbortSignal,
      ): Promise<PermissionDecision>;
    };
  };
}

/**
 * The Glove's own gate: its store's remembered answers, its permissionPolicy, then (without
 * serverMode) a permission prompt on its display — exactly what the model's calls meet.
 */
export function glovePermission(glove: PermissionCheckingGlove): McpAppPermission {
  return (tool, input, signal) => glove.internals.executor.checkPermission(tool, input, undefined, signal);
}

/**
 * The gate of a serverMode Glove where no Glove is at hand (an HTTP route beside glove-server):
 * the store's remembered answers, then `policy`; nobody is asked, so anything else is refused.
 */
export function policyPermission(policy: PermissionPolicy, store?: StoreAdapter): McpAppPermission {
  return (tool, input, signal) =>
    checkPermission(
      { serverMode: true, policy, ...(store ? { store } : {}), displayManager: () => undefined },
      tool,
      input,
      undefined,
      signal,
    );
}

/** Options of `callAppTool`. */
export interface CallAppToolOptions {
  permission: McpAppPermission;
  signal?: AbortSignal;
  /** Default: the entry's `timeoutMs`, else 60 000 ms. */
  timeoutMs?: number;
}

function argumentsOf(request: McpAppToolRequest): Record<string, unknown> {
  const args = request.arguments ?? {};
  if (args === null || typeof args !== "object" || Array.isArray(args)) {
    throw new McpAppError("invalid_arguments", `The arguments of ${request.name} must be an object.`);
  }
  return args as Record<string, unknown>;
}

/**
 * Runs an app's `tools/call` on the app's own server: only tools that server lists with "app"
 * in their visibility, and — unless annotated `readOnlyHint` — only once `permission` grants it.
 * Refusals are `McpAppError`s (`reason` says which rule); the server's answer comes back as is.
 */
export async function callAppTool(
  connection: McpConnection,
  request: McpAppToolRequest,
  options: CallAppToolOptions,
): Promise<CallToolResult> {
  const tool = typeof request?.name === "string" ? connection.tools.find((t) => t.name === request.name) : undefined;
  if (!tool)
    throw new McpAppError("unknown_tool", `${connection.entry.name} has no tool ${JSON.stringify(request?.name)}.`);
  if (!visibleToApp(tool))
    throw new McpAppError(
      "not_app_visible",
      `${tool.name} of ${connection.entry.name} is for the model only; its app may not call it.`,
    );
  const input = argumentsOf(request);
  if (tool.annotations?.readOnlyHint !== true) {
    const gated: GatedTool = {
      name: bridgedToolName(connection.namespace, tool.name),
      serverModeWithoutPolicy: "allow",
    };
    const decision = await options.permission(gated, input, options.signal);
    if (!decision.granted) throw new McpAppError("denied", decision.reason);
  }
  const timeout = options.timeoutMs ?? connection.entry.timeoutMs ?? DEFAULT_CALL_TIMEOUT_MS;
  return (await connection.client.callTool({ name: tool.name, arguments: input }, undefined, {
    ...(options.signal ? { signal: options.signal } : {}),
    timeout,
  })) as CallToolResult;
}
