import { auth } from "@modelcontextprotocol/sdk/client/auth.js";
import type { OAuthClientMetadata, OAuthTokens } from "@modelcontextprotocol/sdk/shared/auth.js";
import type { FetchLike } from "@modelcontextprotocol/sdk/shared/transport.js";
import { messageOf } from "../connect.js";
import { coversScope, unionScope } from "../scope-union.js";
import { endSentence } from "../sentence.js";
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
  /**
   * Requested scope; default: the server's `WWW-Authenticate` scope, then its advertised scopes.
   * When a token is stored under `key`, the scopes it holds are asked for too (after this one), so
   * authorizing again for a wider scope (a step-up) never takes away what the token could do.
   */
  scope?: string;
  fetch?: FetchLike;
}

/** The first half's outcome: a URL to send the user to, or tokens already refreshed without one. */
export type BeginMcpOAuthResult =
  | { status: "redirect"; authorizationUrl: URL }
  /** A stored refresh token was exchanged; no browser round trip is needed. */
  | { status: "authorized"; tokens: OAuthTokens };

/**
 * A provider whose stored refresh token goes unused, so `auth()` sends the user to authorize
 * instead: a refresh keeps the old grant's scope, which a step-up or a forced run must not get back.
 */
class ReauthorizingProvider extends McpOAuthProvider {
  override async tokens(): Promise<OAuthTokens | undefined> {
    const tokens = await super.tokens();
    if (!tokens) return tokens;
    const { refresh_token: _unused, ...rest } = tokens;
    return rest;
  }
}

function providerFor(
  options: McpOAuthFlowOptions,
  onAuthorizationUrl?: (url: URL) => void,
  reauthorize = false,
): McpOAuthProvider {
  const Provider = reauthorize ? ReauthorizingProvider : McpOAuthProvider;
  return new Provider({
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
  return beginAuthorization(options, { mayRefresh: true });
}

/**
 * `beginMcpOAuth`, where `mayRefresh: false` (runMcpOAuth's `force`) always ends at the
 * authorization page. The scope asked for is the requested (or challenged) one, then the ones the
 * stored token holds; a stored refresh token is only exchanged when it already covers that request.
 */
export async function beginAuthorization(
  options: McpOAuthFlowOptions,
  { mayRefresh }: { mayRefresh: boolean },
): Promise<BeginMcpOAuthResult> {
  const serverUrl = new URL(options.serverUrl);
  const fetchFn = options.fetch ?? fetch;
  const challenge = await probeChallenge(serverUrl, fetchFn);
  const held = (await options.store.get(options.key)).tokens?.scope;
  const asked = options.scope ?? challenge.scope;
  const scope = asked ? unionScope(asked, held) : undefined;
  const refresh = mayRefresh && (asked === undefined || coversScope(held, asked));
  let authorizationUrl: URL | undefined;
  const provider = providerFor(
    options,
    (url) => {
      authorizationUrl = url;
    },
    !refresh,
  );
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
    throw new McpOAuthError("callback", endSentence(`The authorization server refused: ${callback.error}${detail}`));
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
