import type { OAuthTokens } from "@modelcontextprotocol/sdk/shared/auth.js";
import type { FetchLike } from "@modelcontextprotocol/sdk/shared/transport.js";
import { connectMcp, isAuthError, messageOf } from "../connect.js";
import { joinContentText } from "../bridge.js";
import { coversScope } from "../scope-union.js";
import { endSentence } from "../sentence.js";
import { canOpenBrowser, openInBrowser } from "./browser.js";
import { startCallbackListener } from "./callback-listener.js";
import { McpOAuthError } from "./errors.js";
import { beginAuthorization, completeMcpOAuth, type McpOAuthFlowOptions } from "./flow.js";
import type { PreRegisteredClient } from "./provider.js";
import type { OAuthStore } from "./store.js";

/** The call that proves a token works: list the tools, or call one. */
export type McpOAuthVerify =
  { type: "listTools" } | { type: "callTool"; name: string; arguments?: Record<string, unknown> };

/**
 * Options of `runMcpOAuth`, the one-call browser flow for CLIs: server, token store, callback port and
 * checks.
 */
export interface RunMcpOAuthOptions {
  serverUrl: string;
  store: OAuthStore;
  /** The store key for this server's tokens (usually the catalogue entry id). */
  key: string;
  /** Loopback callback port (0 picks a free one; a fixed port keeps the registered redirect URI stable). */
  port: number;
  /** For servers without Dynamic Client Registration. */
  preRegisteredClient?: PreRegisteredClient;
  /**
   * The https URL of the app's Client ID Metadata Document, used as the client id by authorization
   * servers that support it (see `clientMetadataDocument`); a fixed `port` keeps its redirect URI valid.
   */
  clientMetadataUrl?: string;
  /**
   * The scope to ask for (default: the server's challenge). With a token stored under `key`, the
   * scopes it holds are asked for too, after this one, so a step-up keeps them; a stored token that
   * lacks this scope is not reused.
   */
  scope?: string;
  /** Default `{ type: "listTools" }`; `false` skips the verification call. */
  verify?: McpOAuthVerify | false;
  /** Default `/callback`. */
  callbackPath?: string;
  clientName?: string;
  /**
   * `true` / `false` force or forbid opening a browser; a function receives the URL instead.
   * Default: open one when the machine has a display and is not CI, else print the URL.
   */
  openBrowser?: boolean | ((authorizationUrl: URL) => void | Promise<void>);
  /** Where progress and the URL to open are written. Default `console.log`. */
  log?: (line: string) => void;
  /** Run the browser flow even when the stored token still works (its refresh token is not used either). */
  force?: boolean;
  /** How long to wait for the browser to come back. Default 5 minutes. */
  timeoutMs?: number;
  signal?: AbortSignal;
  fetch?: FetchLike;
}

/** What `runMcpOAuth` got: the tokens, whether stored ones were reused, and what the check call saw. */
export interface RunMcpOAuthResult {
  key: string;
  tokens: OAuthTokens;
  /** True when the stored token was still accepted and no new authorization ran. */
  reused: boolean;
  /** What the verification call saw, unless skipped. */
  verified?: { tools: number; result?: string };
}

/**
 * Connects with the token and runs the verification call; throws McpOAuthError("verification").
 * `kept`: the tokens were just obtained and stay stored (the message says so), as opposed to a
 * stored token being re-checked.
 */
async function verifyToken(
  options: RunMcpOAuthOptions,
  accessToken: string,
  kept = false,
): Promise<RunMcpOAuthResult["verified"]> {
  try {
    return await runVerification(options, accessToken);
  } catch (error) {
    if (!kept || !McpOAuthError.isInstance(error)) throw error;
    throw new McpOAuthError(
      "verification",
      `${endSentence(error.message)} The new tokens are kept in the store under "${options.key}": the authorization itself succeeded.`,
      { cause: error.cause ?? error },
    );
  }
}

async function runVerification(
  options: RunMcpOAuthOptions,
  accessToken: string,
): Promise<RunMcpOAuthResult["verified"]> {
  const verify = options.verify ?? { type: "listTools" };
  if (verify === false) return undefined;
  const entry = { id: options.key, name: options.key, description: "", url: options.serverUrl };
  let connection: Awaited<ReturnType<typeof connectMcp>>;
  try {
    connection = await connectMcp(entry, {
      getAccessToken: async () => accessToken,
      ...(options.signal ? { signal: options.signal } : {}),
    });
  } catch (error) {
    const why = isAuthError(error) ? "the server refused the token" : messageOf(error);
    throw new McpOAuthError(
      "verification",
      endSentence(`Verifying the token against ${options.serverUrl} failed: ${why}`),
      {
        cause: error,
      },
    );
  }
  try {
    if (verify.type === "listTools") return { tools: connection.tools.length };
    const result = await connection.client.callTool({ name: verify.name, arguments: verify.arguments ?? {} });
    const text = joinContentText(Array.isArray(result.content) ? result.content : []);
    if (result.isError) {
      throw new McpOAuthError(
        "verification",
        endSentence(`The verification call ${verify.name} failed: ${text || "no details"}`),
      );
    }
    return { tools: connection.tools.length, result: text };
  } catch (error) {
    if (McpOAuthError.isInstance(error)) throw error;
    throw new McpOAuthError("verification", endSentence(`The verification call failed: ${messageOf(error)}`), {
      cause: error,
    });
  } finally {
    await connection.close().catch(() => undefined);
  }
}

async function present(options: RunMcpOAuthOptions, url: URL, log: (line: string) => void): Promise<void> {
  const open = options.openBrowser ?? canOpenBrowser();
  if (typeof open === "function") return open(url);
  if (open && (await openInBrowser(url))) {
    log(`Opened your browser to authorize ${options.key}. If it did not open, visit:\n${url.href}`);
    return;
  }
  log(`To authorize ${options.key}, open this URL in a browser:\n${url.href}`);
}

/**
 * The whole MCP authorization dance from a terminal: listen on 127.0.0.1, discover, register
 * (or use the pre-registered client), PKCE + state, send the user to the authorization page,
 * check the callback, exchange and persist the tokens, then verify them with one MCP call.
 * A stored token that still verifies is reused unless `force` is set. When the server refuses
 * the verification call, the new tokens stay stored and the McpOAuthError("verification") says so.
 */
export async function runMcpOAuth(options: RunMcpOAuthOptions): Promise<RunMcpOAuthResult> {
  const log = options.log ?? ((line: string) => console.log(line));
  const stored = (await options.store.get(options.key)).tokens;
  // A stored token is only reused when it holds the scope asked for (a step-up needs a new grant).
  const reusable = !options.force && options.verify !== false && coversScope(stored?.scope, options.scope);
  if (stored?.access_token && reusable) {
    try {
      const verified = await verifyToken(options, stored.access_token);
      return { key: options.key, tokens: stored, reused: true, ...(verified ? { verified } : {}) };
    } catch {
      // Expired or revoked: authorize again below.
    }
  }

  const listener = await startCallbackListener(options.port, options.callbackPath);
  try {
    const flow: McpOAuthFlowOptions = {
      serverUrl: options.serverUrl,
      store: options.store,
      key: options.key,
      redirectUrl: listener.redirectUrl,
      ...(options.clientName ? { clientName: options.clientName } : {}),
      ...(options.preRegisteredClient ? { preRegisteredClient: options.preRegisteredClient } : {}),
      ...(options.clientMetadataUrl ? { clientMetadataUrl: options.clientMetadataUrl } : {}),
      ...(options.scope ? { scope: options.scope } : {}),
      ...(options.fetch ? { fetch: options.fetch } : {}),
    };
    const begun = await beginAuthorization(flow, { mayRefresh: !options.force });
    let tokens: OAuthTokens;
    if (begun.status === "authorized") {
      tokens = begun.tokens;
    } else {
      const expectedState = new URL(begun.authorizationUrl).searchParams.get("state") ?? undefined;
      const callback = listener.waitForCallback({
        ...(expectedState !== undefined ? { expectedState } : {}),
        ...(options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {}),
        ...(options.signal ? { signal: options.signal } : {}),
      });
      try {
        await present(options, begun.authorizationUrl, log);
      } catch (error) {
        callback.catch(() => undefined); // never leave the pending wait unobserved
        throw error;
      }
      tokens = await completeMcpOAuth(flow, await callback);
    }
    const verified = await verifyToken(options, tokens.access_token, true);
    return { key: options.key, tokens, reused: false, ...(verified ? { verified } : {}) };
  } finally {
    await listener.close();
  }
}
