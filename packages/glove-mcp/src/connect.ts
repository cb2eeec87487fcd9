import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { SSEClientTransport } from "@modelcontextprotocol/sdk/client/sse.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { Tool as McpTool } from "@modelcontextprotocol/sdk/types.js";
import { GloveError } from "glove-core";
import { bearerFetch } from "./bearer-fetch.js";
import type { McpCatalogueEntry } from "./types.js";

export type { McpTool };

/** Which transport a connection ended up on. */
export type McpTransportKind = "streamable-http" | "sse" | "stdio";

/** A live MCP client for one catalogue entry, with its full tool list. */
export interface McpConnection {
  /** Tool-name prefix: the entry id. */
  readonly namespace: string;
  readonly entry: McpCatalogueEntry;
  readonly client: Client;
  readonly transport: McpTransportKind;
  /** Every tool the server lists (all pages). */
  readonly tools: McpTool[];
  /** Re-reads the tool list (all pages). */
  refreshTools(): Promise<McpTool[]>;
  close(): Promise<void>;
}

/** Options of `connectMcp`: the token source, client info, transport choice and an abort signal. */
export interface ConnectMcpOptions {
  /** Resolves the bearer token for HTTP entries (typically `adapter.getAccessToken`). */
  getAccessToken?: (id: string) => Promise<string>;
  /** Client name/version announced to the server. */
  clientInfo?: { name: string; version: string };
  /** Try only this HTTP transport instead of Streamable HTTP with SSE fallback. */
  httpTransport?: "streamable-http" | "sse";
  /** Bounds connection set-up. */
  signal?: AbortSignal;
}

/** Thrown when the server rejects the bearer token (HTTP 401). */
export class McpAuthError extends GloveError {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, { ...options, code: "GLOVE_MCP_AUTH" });
    this.name = "McpAuthError";
  }

  static override isInstance(error: unknown): error is McpAuthError {
    return GloveError.isInstance(error) && error.code === "GLOVE_MCP_AUTH";
  }
}

/** Thrown when no transport could reach the server; the message lists each attempt. */
export class McpConnectError extends GloveError {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, { ...options, code: "GLOVE_MCP_CONNECT" });
    this.name = "McpConnectError";
  }

  static override isInstance(error: unknown): error is McpConnectError {
    return GloveError.isInstance(error) && error.code === "GLOVE_MCP_CONNECT";
  }
}

/** True for the errors that mean "the token was refused or expired". */
export function isAuthError(error: unknown): boolean {
  if (McpAuthError.isInstance(error)) return true;
  if (!(error instanceof Error)) return false;
  if (error.name === "UnauthorizedError") return true;
  const code = (error as { code?: unknown }).code;
  if (code === 401) return true;
  return /\b401\b|unauthori[sz]ed|invalid_token|token expired/i.test(error.message);
}

async function listAllTools(client: Client): Promise<McpTool[]> {
  const tools: McpTool[] = [];
  let cursor: string | undefined;
  const seen = new Set<string>();
  do {
    const page = await client.listTools(cursor === undefined ? {} : { cursor });
    tools.push(...page.tools);
    cursor = page.nextCursor;
    if (cursor !== undefined) {
      if (seen.has(cursor)) break; // a server repeating a cursor would loop forever
      seen.add(cursor);
    }
  } while (cursor !== undefined);
  return tools;
}

function newClient(options: ConnectMcpOptions): Client {
  return new Client(options.clientInfo ?? { name: "glove-mcp", version: "0.1.0" }, { capabilities: {} });
}

async function open(client: Client, transport: Transport, signal?: AbortSignal): Promise<void> {
  await client.connect(transport, signal ? { signal } : undefined);
}

/**
 * Connects to the server a catalogue entry names: a local command over stdio when
 * `entry.stdio` is set, otherwise Streamable HTTP with `Authorization: Bearer <token>`,
 * falling back to the legacy SSE transport when the server does not speak Streamable HTTP.
 * The tool list is read to its last page.
 */
export async function connectMcp(entry: McpCatalogueEntry, options: ConnectMcpOptions = {}): Promise<McpConnection> {
  let client: Client;
  let kind: McpTransportKind;
  if (entry.stdio) {
    client = newClient(options);
    const { command, args, env, cwd } = entry.stdio;
    const transport = new StdioClientTransport({
      command,
      ...(args ? { args } : {}),
      ...(env ? { env } : {}),
      ...(cwd ? { cwd } : {}),
      stderr: "pipe",
    });
    await open(client, transport, options.signal);
    kind = "stdio";
  } else {
    const url = new URL(entry.url);
    const getAccessToken = options.getAccessToken;
    const authFetch = getAccessToken
      ? bearerFetch(await getAccessToken(entry.id), () => getAccessToken(entry.id))
      : undefined;
    const attempts: Array<"streamable-http" | "sse"> = options.httpTransport
      ? [options.httpTransport]
      : ["streamable-http", "sse"];
    const failures: string[] = [];
    let connected: { client: Client; kind: McpTransportKind } | undefined;
    for (const attempt of attempts) {
      const candidate = newClient(options);
      const transportOptions = authFetch ? { fetch: authFetch } : {};
      const transport =
        attempt === "streamable-http"
          ? new StreamableHTTPClientTransport(url, transportOptions)
          : new SSEClientTransport(url, transportOptions);
      try {
        await open(candidate, transport, options.signal);
        connected = { client: candidate, kind: attempt };
        break;
      } catch (error) {
        await candidate.close().catch(() => undefined);
        if (isAuthError(error)) throw new McpAuthError(`MCP server "${entry.id}" refused the token: ${messageOf(error)}`, { cause: error });
        if (options.signal?.aborted) throw error;
        failures.push(`${attempt}: ${messageOf(error)}`);
      }
    }
    if (!connected) {
      throw new McpConnectError(`Could not connect to MCP server "${entry.id}" at ${entry.url} (${failures.join("; ")}). Check that it is running and the URL is right.`);
    }
    client = connected.client;
    kind = connected.kind;
  }

  let tools: McpTool[];
  try {
    tools = await listAllTools(client);
  } catch (error) {
    await client.close().catch(() => undefined);
    throw error;
  }
  let closed = false;
  const connection: McpConnection = {
    namespace: entry.id,
    entry,
    client,
    transport: kind,
    get tools() {
      return tools;
    },
    async refreshTools() {
      tools = await listAllTools(client);
      return tools;
    },
    async close() {
      if (closed) return;
      closed = true;
      await client.close();
    },
  };
  return connection;
}

export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
