import type { OAuthClientProvider } from "@modelcontextprotocol/sdk/client/auth.js";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { SSEClientTransport } from "@modelcontextprotocol/sdk/client/sse.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport, StreamableHTTPError } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { FetchLike, Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { Tool as McpTool } from "@modelcontextprotocol/sdk/types.js";
import { MCP_APPS_EXTENSION } from "./apps/tool-ui.js";
import { bearerFetch } from "./bearer-fetch.js";
import type { McpClientFeatures } from "./client-features/types.js";
import { startDeadline, type Deadline } from "./deadline.js";
import { isAuthError, McpAuthError, McpConnectError, McpInsufficientScopeError, messageOf } from "./errors.js";
import { McpOAuthError } from "./oauth/errors.js";
import { ScopeChallengeLog, type ScopeChallenge } from "./scope-challenge.js";
import { withScopeStepUp } from "./step-up-provider.js";
import { toCatalogueEntry, type McpServerInput } from "./server-spec.js";
import { listAllTools, watchToolList } from "./tool-list.js";
import type { McpCatalogueEntry } from "./types.js";

export type { McpTool };
export {
  isAuthError,
  McpAuthError,
  McpConnectError,
  McpInsufficientScopeError,
  McpTimeoutError,
  messageOf,
} from "./errors.js";

/** Which transport a connection ended up on. */
export type McpTransportKind = "streamable-http" | "sse" | "stdio";

/** A live MCP client for one catalogue entry, with its full tool list. */
export interface McpConnection {
  /** Tool-name prefix: the entry id. */
  readonly namespace: string;
  readonly entry: McpCatalogueEntry;
  readonly client: Client;
  readonly transport: McpTransportKind;
  /** Every tool the server lists (all pages); kept current on `tools/list_changed`. */
  readonly tools: McpTool[];
  /** The 403 `insufficient_scope` challenges this connection met (HTTP only). */
  readonly scopeChallenges: ScopeChallengeLog;
  /** Re-reads the tool list (all pages). */
  refreshTools(): Promise<McpTool[]>;
  /** Called with the new list whenever the server announces `tools/list_changed`. Returns an unsubscribe. */
  onToolsChanged(listener: (tools: McpTool[]) => void): () => void;
  close(): Promise<void>;
}

/** Default bound of `connectMcp`: handshake, transport fallback and tool listing together. */
export const DEFAULT_CONNECT_TIMEOUT_MS = 30_000;

/** Options of `connectMcp`: credentials, client info, transport choice, time bound and abort signal. */
export interface ConnectMcpOptions {
  /**
   * Resolves the bearer token for HTTP entries (typically `adapter.getAccessToken`). A null,
   * undefined or empty token sends no `Authorization` header (open servers).
   */
  getAccessToken?: (id: string) => Promise<string | null | undefined>;
  /**
   * An SDK `OAuthClientProvider` instead of `getAccessToken`: the transport gets and refreshes
   * tokens itself, and steps up on a 403 `insufficient_scope` (e.g. `McpOAuthProvider`, or the
   * client-credentials / private-key-JWT providers of `glove-mcp/oauth`).
   */
  authProvider?: OAuthClientProvider;
  /** Client name/version announced to the server. */
  clientInfo?: { name: string; version: string };
  /** Try only this HTTP transport instead of Streamable HTTP with SSE fallback. */
  httpTransport?: "streamable-http" | "sse";
  /** Bounds the whole connection (handshake, fallback, tool list). Default 30 000 ms. */
  connectTimeoutMs?: number;
  /** Aborts connecting; the promise rejects with the signal's reason. */
  signal?: AbortSignal;
  /** Client-side features (elicitation, sampling, roots) declared and handled on the new client. */
  features?: McpClientFeatures;
  /** Called when re-reading the tool list after `tools/list_changed` fails. Default: ignored. */
  onError?: (error: unknown) => void;
}

/** The statuses the MCP spec names for "this server does not speak Streamable HTTP": try legacy SSE. */
const SSE_FALLBACK_STATUSES = new Set([400, 404, 405]);

function fallsBackToSse(error: unknown): boolean {
  return error instanceof StreamableHTTPError && error.code !== undefined && SSE_FALLBACK_STATUSES.has(error.code);
}

function newClient(options: ConnectMcpOptions, entry: McpCatalogueEntry): Client {
  const client = new Client(options.clientInfo ?? { name: "glove-mcp", version: "0.1.0" }, {
    capabilities: { extensions: { ...MCP_APPS_EXTENSION } },
  });
  options.features?.attach(client, entry);
  return client;
}

async function open(client: Client, transport: Transport, deadline: Deadline): Promise<void> {
  // The race matters for SSE: its start() waits for an `endpoint` event and takes no signal.
  await deadline.race(client.connect(transport, { signal: deadline.signal }));
}

/** The fetch the HTTP transports use: bearer token (when any) and the scope-challenge log. */
async function httpFetch(
  entry: McpCatalogueEntry,
  options: ConnectMcpOptions,
  log: ScopeChallengeLog,
  deadline: Deadline,
): Promise<FetchLike> {
  const getAccessToken = options.getAccessToken;
  if (!getAccessToken || options.authProvider) return log.wrap(fetch);
  const token = await deadline.race(getAccessToken(entry.id));
  return log.wrap(bearerFetch(token, () => getAccessToken(entry.id)));
}

/**
 * Connects to the server a catalogue entry (or its short form, `{ command, args? }` or `{ url }`)
 * names: a local command over stdio when `stdio` / `command` is set, otherwise Streamable HTTP,
 * falling back to the legacy SSE transport only when the first POST is answered 400, 404 or 405.
 * The tool list is read to its last page. The whole attempt is bounded by `connectTimeoutMs` (an
 * `McpTimeoutError`) and `signal`.
 */
export async function connectMcp(server: McpServerInput, options: ConnectMcpOptions = {}): Promise<McpConnection> {
  const entry = toCatalogueEntry(server);
  if (options.authProvider && options.getAccessToken) {
    throw new McpConnectError(`connectMcp("${entry.id}"): pass either getAccessToken or authProvider, not both.`);
  }
  checkDurations(entry, options);
  const timeoutMs = options.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS;
  const deadline = startDeadline(
    timeoutMs,
    `Connecting to MCP server "${entry.id}" (${whereIs(entry)})`,
    options.signal,
  );
  const scopeChallenges = new ScopeChallengeLog();
  let client: Client;
  let kind: McpTransportKind;
  try {
    ({ client, kind } = entry.stdio
      ? await openStdio(entry, options, deadline)
      : await openHttp(entry, options, deadline, scopeChallenges));
  } catch (error) {
    deadline.dispose();
    throw error;
  }

  let tools: McpTool[] = [];
  const listeners = new Set<(tools: McpTool[]) => void>();
  const refreshTools = async () => {
    tools = await listAllTools(client);
    return tools;
  };
  const stopWatching = watchToolList(
    client,
    refreshTools,
    (next) => {
      for (const listener of listeners) listener(next);
    },
    options.onError ?? (() => undefined),
  );
  const mark = scopeChallenges.mark();
  try {
    await deadline.race(refreshTools());
  } catch (error) {
    stopWatching();
    await client.close().catch(() => undefined);
    if (deadline.signal.aborted) throw deadline.signal.reason;
    // Servers that let `initialize` through unauthenticated refuse the tool list instead.
    throw authFailure(entry, error, scopeChallenges.since(mark)) ?? error;
  } finally {
    deadline.dispose();
  }
  let closed = false;
  return {
    namespace: entry.id,
    entry,
    client,
    transport: kind,
    scopeChallenges,
    get tools() {
      return tools;
    },
    refreshTools,
    onToolsChanged(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    async close() {
      if (closed) return;
      closed = true;
      stopWatching();
      listeners.clear();
      await client.close();
    },
  };
}

/**
 * The typed error for a request the server refused for authorization: a 403 `insufficient_scope`
 * challenge met while it ran, a 401 (the SDK's UnauthorizedError once its provider sent the user
 * to authorize), or an OAuth flow that failed on the way. Undefined for any other failure.
 */
function authFailure(
  entry: McpCatalogueEntry,
  error: unknown,
  challenge: ScopeChallenge | undefined,
): Error | undefined {
  if (McpOAuthError.isInstance(error)) return error;
  if (challenge) {
    return new McpInsufficientScopeError(
      `MCP server "${entry.id}" needs more scope than the token carries${challenge.scope ? ` (it asks for "${challenge.scope}")` : ""}. Authorize again with that scope.`,
      { requiredScope: challenge.scope, resourceMetadataUrl: challenge.resourceMetadataUrl },
      { cause: error },
    );
  }
  if (isAuthError(error))
    return new McpAuthError(`MCP server "${entry.id}" refused the token: ${messageOf(error)}`, { cause: error });
  return undefined;
}

/** The server's address for messages: its URL, or the command that starts it. */
function whereIs(entry: McpCatalogueEntry): string {
  return entry.stdio ? [entry.stdio.command, ...(entry.stdio.args ?? [])].join(" ") : entry.url;
}

/** Timeouts must be positive, finite milliseconds: 0 or NaN would fail every call at once, or never. */
function checkDurations(entry: McpCatalogueEntry, options: ConnectMcpOptions): void {
  const durations = {
    connectTimeoutMs: options.connectTimeoutMs,
    [`entry "${entry.id}" timeoutMs`]: entry.timeoutMs,
    [`entry "${entry.id}" maxTotalTimeoutMs`]: entry.maxTotalTimeoutMs,
  };
  for (const [name, value] of Object.entries(durations)) {
    if (value !== undefined && !(Number.isFinite(value) && value > 0)) {
      throw new McpConnectError(
        `${name} must be a positive number of milliseconds (got ${String(value)}); leave it out for the default.`,
      );
    }
  }
}

async function openStdio(entry: McpCatalogueEntry, options: ConnectMcpOptions, deadline: Deadline) {
  const client = newClient(options, entry);
  const { command, args, env, cwd } = entry.stdio!;
  const transport = new StdioClientTransport({
    command,
    ...(args ? { args } : {}),
    ...(env ? { env } : {}),
    ...(cwd ? { cwd } : {}),
    stderr: "pipe",
  });
  try {
    await open(client, transport, deadline);
  } catch (error) {
    await client.close().catch(() => undefined);
    throw deadline.signal.aborted ? deadline.signal.reason : error;
  }
  return { client, kind: "stdio" as const };
}

async function openHttp(
  entry: McpCatalogueEntry & { url: string },
  options: ConnectMcpOptions,
  deadline: Deadline,
  log: ScopeChallengeLog,
) {
  const url = new URL(entry.url);
  const transportOptions = {
    fetch: await httpFetch(entry, options, log, deadline),
    // One wrapper per connection: the step-up state follows this connection's challenges.
    ...(options.authProvider ? { authProvider: withScopeStepUp(options.authProvider, log) } : {}),
  };
  const attempts: Array<"streamable-http" | "sse"> = options.httpTransport
    ? [options.httpTransport]
    : ["streamable-http", "sse"];
  const failures: string[] = [];
  for (const attempt of attempts) {
    const candidate = newClient(options, entry);
    const transport =
      attempt === "streamable-http"
        ? new StreamableHTTPClientTransport(url, transportOptions)
        : new SSEClientTransport(url, transportOptions);
    const mark = log.mark();
    try {
      await open(candidate, transport, deadline);
      return { client: candidate, kind: attempt };
    } catch (error) {
      await candidate.close().catch(() => undefined);
      if (deadline.signal.aborted) throw deadline.signal.reason;
      const refused = authFailure(entry, error, log.since(mark));
      if (refused) throw refused;
      failures.push(`${attempt}: ${messageOf(error)}`);
      if (attempt === "streamable-http" && !fallsBackToSse(error)) break;
    }
  }
  throw new McpConnectError(
    `Could not connect to MCP server "${entry.id}" at ${entry.url} (${failures.join("; ")}). Check that it is running and the URL is right.`,
  );
}
