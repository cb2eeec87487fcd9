import { extractWWWAuthenticateParams } from "@modelcontextprotocol/sdk/client/auth.js";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { FetchLike } from "@modelcontextprotocol/sdk/shared/transport.js";
import { LATEST_PROTOCOL_VERSION } from "@modelcontextprotocol/sdk/types.js";
import { messageOf } from "../errors.js";
import { McpOAuthError } from "./errors.js";

/** What the server said to a request without a token. */
export interface AuthChallenge {
  /** 401 when it asked for a token; otherwise the status of the unauthenticated `initialize`. */
  status: number;
  resourceMetadataUrl?: URL;
  scope?: string;
}

const CLIENT_INFO = { name: "glove-mcp-oauth", version: "0.1.0" };

function challengeOf(response: Response): AuthChallenge {
  const { resourceMetadataUrl, scope } = extractWWWAuthenticateParams(response);
  return { status: 401, ...(resourceMetadataUrl ? { resourceMetadataUrl } : {}), ...(scope ? { scope } : {}) };
}

/**
 * Asks the MCP server, without a token, how to authorize: a protected server answers 401 with
 * `WWW-Authenticate: Bearer resource_metadata="…", scope="…"`. Some servers let `initialize`
 * through and protect the operations after it; for those the handshake is finished and the tool
 * list asked for, so the scope comes from the challenge that guards the tools (not a guess from
 * `scopes_supported`). Servers that challenge nothing get the SDK's well-known fallbacks later.
 */
export async function probeChallenge(serverUrl: URL, fetchFn: FetchLike): Promise<AuthChallenge> {
  let response: Response;
  try {
    response = await fetchFn(serverUrl, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 0,
        method: "initialize",
        params: { protocolVersion: LATEST_PROTOCOL_VERSION, capabilities: {}, clientInfo: CLIENT_INFO },
      }),
    });
  } catch (error) {
    throw new McpOAuthError("discovery", `Could not reach the MCP server at ${serverUrl.href}: ${messageOf(error)}`, {
      cause: error,
    });
  }
  await response.body?.cancel().catch(() => undefined);
  if (response.status === 401) return challengeOf(response);
  if (!response.ok) return { status: response.status };
  return (await challengeAfterHandshake(serverUrl, fetchFn)) ?? { status: response.status };
}

/** Connects without a token and lists the tools; the first 401 met on the way, if any. */
async function challengeAfterHandshake(serverUrl: URL, fetchFn: FetchLike): Promise<AuthChallenge | undefined> {
  let challenge: AuthChallenge | undefined;
  const recording: FetchLike = async (url, init) => {
    const response = await fetchFn(url, init);
    if (response.status === 401) challenge ??= challengeOf(response);
    return response;
  };
  const client = new Client(CLIENT_INFO, { capabilities: {} });
  try {
    await client.connect(new StreamableHTTPClientTransport(serverUrl, { fetch: recording }));
    await client.listTools();
  } catch {
    // Refused (what was probed for) or not an MCP server this way: the challenge, if any, says which.
  } finally {
    await client.close().catch(() => undefined);
  }
  return challenge;
}
