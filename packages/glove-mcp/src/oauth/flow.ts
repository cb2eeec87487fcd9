import { auth } from "@modelcontextprotocol/sdk/client/auth.js";
import type { OAuthClientMetadata, OAuthTokens } from "@modelcontextprotocol/sdk/shared/auth.js";
import type { FetchLike } from "@modelcontextprotocol/sdk/shared/transport.js";
import { messageOf } from "../connect.js";
import { McpOAuthError, type McpOAuthStep } from "./errors.js";
import { buildClientMetadata } from "./metadata.js";
import { probeChallenge } from "./probe.js";
import { McpOAuthProvider, type PreRegisteredClient } from "./provider.js";
import type { OAuthStore } from "./store.js";

/** What both halves of the flow need; the same values must reach both. */
export interface McpOAuthFlowOptions {
  serverUrl: string | URL;
  store: OAuthStore;
  key: string;
  /** The callback URL the authorization server redirects to. */
  redirectUrl: string;
  /** Default: `buildClientMetadata({ redirectUrl, scope, clientName })`. */
  clientMetadata?: OAuthClientMetadata;
  /** Registered client name when `clientMetadata` is not given. */
  clientName?: string;
  preRegisteredClient?: PreRegisteredClient;
  /** The app's Client ID Metadata Document URL (see `McpOAuthProviderOptions.clientMetadataUrl`). */
  clientMetadataUrl?: string;
  /** Requested scope; default: the server's `WWW-Authenticate` scope, then its advertised scopes. */
  scope?: string;
  fetch?: FetchLike;
}

/** The first half's outcome: a URL to send the user to, or tokens already refreshed without one. */
export type BeginMcpOAuthResult =
  | { status: "redirect"; authorizationUrl: URL }
  /** A stored refresh token was exchanged; no browser round trip is needed. */
  | { status: "authorized"; tokens: OAuthTokens };

function providerFor(options: McpOAuthFlowOptions, onAuthorizationUrl?: (url: URL) => void): McpOAuthProvider {
  return new McpOAuthProvider({
    store: options.store,
    key: options.key,
    redirectUrl: options.redirectUrl,
    clientMetadata:
      options.clientMetadata ??
      buildClientMetadata({
        redirectUrl: options.redirectUrl,
        ...(options.scope ? { scope: options.scope } : {}),
        ...(options.clientName ? { clientName: options.clientName } : {}),
      }),
    ...(options.preRegisteredClient ? { preRegisteredClient: options.preRegisteredClient } : {}),
    ...(options.clientMetadataUrl ? { clientMetadataUrl: options.clientMetadataUrl } : {}),
    ...(onAuthorizationUrl ? { onAuthorizationUrl } : {}),
  });
}

function fail(step: McpOAuthStep, what: string, error: unknown): never {
  if (McpOAuthError.isInstance(error)) throw error;
  throw new McpOAuthError(step, `${what}: ${messageOf(error)}`, { cause: error });
}

/**
 * First half of the authorization-code flow: discovery, Dynamic Client Registration (unless a
 * client is pre-registered or already stored), PKCE S256 and a fresh `state`, all persisted under
 * `key`. Send the user to `authorizationUrl`; finish with `completeMcpOAuth` on the callback.
 */
export async function beginMcpOAuth(options: McpOAuthFlowOptions): Promise<BeginMcpOAuthResult> {
  const serverUrl = new URL(options.serverUrl);
  const fetchFn = options.fetch ?? fetch;
  const challenge = await probeChallenge(serverUrl, fetchFn);
  let authorizationUrl: URL | undefined;
  const provider = providerFor(options, (url) => {
    authorizationUrl = url;
  });
  const scope = options.scope ?? challenge.scope;
  let result: Awaited<ReturnType<typeof auth>>;
  try {
    result = await auth(provider, {
      serverUrl,
      fetchFn,
      ...(scope ? { scope } : {}),
      ...(challenge.resourceMetadataUrl ? { resourceMetadataUrl: challenge.resourceMetadataUrl } : {}),
    });
  } catch (error) {
    const hint =
      challenge.status === 401
        ? ""
        : ` (the server answered ${challenge.status} without asking for a token: it may not use OAuth)`;
    fail("authorization", `Could not start authorization with ${serverUrl.href}${hint}`, error);
  }
  if (result === "AUTHORIZED") {
    const tokens = await provider.tokens();
    if (tokens) return { status: "authorized", tokens };
  }
  if (!authorizationUrl) throw new McpOAuthError("authorization", "The OAuth flow produced no authorization URL.");
  return { status: "redirect", authorizationUrl };
}

/** The query of the callback request: `code` and `state`, or the server's `error`. */
export interface McpOAuthCallbackParams {
  code?: string | null;
  state?: string | null;
  error?: string | null;
  error_description?: string | null;
  /** RFC 9207: the issuer of the authorization response, when the server sends one. */
  iss?: string | null;
}

/**
 * RFC 9207 mix-up defence: when the authorization server advertises
 * `authorization_response_iss_parameter_supported`, the callback must carry `iss`; whenever it
 * carries one, it must be the issuer discovery found. Checked before the code is exchanged.
 */
async function checkIssuer(provider: McpOAuthProvider, iss: string | null | undefined): Promise<void> {
  const discovery = await provider.discoveryState();
  const metadata = discovery?.authorizationServerMetadata as
    { issuer?: string; authorization_response_iss_parameter_supported?: boolean } | undefined;
  const required = metadata?.authorization_response_iss_parameter_supported === true;
  if (iss === undefined || iss === null || iss === "") {
    if (required) {
      throw new McpOAuthError(
        "callback",
        "The authorization server promises an `iss` parameter on its callback but this one has none (a possible mix-up attack). Start the authorization again.",
      );
    }
    return;
  }
  const expected = metadata?.issuer ?? discovery?.authorizationServerUrl;
  const trim = (url: string) => url.replace(/\/+$/, "");
  const matches =
    expected !== undefined && (metadata?.issuer !== undefined ? iss === expected : trim(iss) === trim(expected));
  if (!matches) {
    throw new McpOAuthError(
      "callback",
      `The callback's issuer (${iss}) is not the authorization server this flow started with${expected ? ` (${expected})` : ""}. Start the authorization again.`,
    );
  }
}

/**
 * Second half: checks `state` against the pending authorization, exchanges the code (with the
 * PKCE verifier) for tokens and persists them. Returns the tokens.
 */
export async function completeMcpOAuth(
  options: McpOAuthFlowOptions,
  callback: McpOAuthCallbackParams,
): Promise<OAuthTokens> {
  if (callback.error) {
    const detail = callback.error_description ? ` (${callback.error_description})` : "";
    throw new McpOAuthError("callback", `The authorization server refused: ${callback.error}${detail}.`);
  }
  const provider = providerFor(options);
  if (!(await provider.checkState(callback.state))) {
    throw new McpOAuthError(
      "callback",
      "The callback's state does not match the authorization in progress (a stale or forged redirect). Start the authorization again.",
    );
  }
  await checkIssuer(provider, callback.iss);
  if (!callback.code) throw new McpOAuthError("callback", "The callback carries no authorization code.");
  const serverUrl = new URL(options.serverUrl);
  try {
    await auth(provider, {
      serverUrl,
      authorizationCode: callback.code,
      fetchFn: options.fetch ?? fetch,
      ...(options.scope ? { scope: options.scope } : {}),
    });
  } catch (error) {
    fail("token", "Exchanging the authorization code failed", error);
  }
  const tokens = await provider.tokens();
  if (!tokens) throw new McpOAuthError("token", "The token exchange returned no tokens.");
  return tokens;
}
