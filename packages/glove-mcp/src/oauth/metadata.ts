import type { OAuthClientMetadata } from "@modelcontextprotocol/sdk/shared/auth.js";

/** Options of `buildClientMetadata`: the redirect URI (loopback port or full URL), client name and scope. */
export interface BuildClientMetadataOptions {
  /** Loopback callback port; the redirect URI is `http://127.0.0.1:<port><callbackPath>`. */
  port?: number;
  /** Callback path, default `/callback`. */
  callbackPath?: string;
  /** A full redirect URI instead of the loopback one (a web app's callback route). */
  redirectUrl?: string;
  clientName?: string;
  scope?: string;
}

/** The loopback redirect URI `runMcpOAuth` listens on. */
export function loopbackRedirectUrl(port: number, callbackPath = "/callback"): string {
  return `http://127.0.0.1:${port}${callbackPath.startsWith("/") ? "" : "/"}${callbackPath}`;
}

/** Dynamic Client Registration metadata for a public client (PKCE, no secret). */
export function buildClientMetadata(options: BuildClientMetadataOptions): OAuthClientMetadata {
  let redirectUrl = options.redirectUrl;
  if (redirectUrl === undefined) {
    if (options.port === undefined) throw new TypeError("buildClientMetadata needs a port or a redirectUrl.");
    redirectUrl = loopbackRedirectUrl(options.port, options.callbackPath);
  }
  return {
    client_name: options.clientName ?? "glove-mcp",
    redirect_uris: [redirectUrl],
    grant_types: ["authorization_code", "refresh_token"],
    response_types: ["code"],
    token_endpoint_auth_method: "none",
    ...(options.scope !== undefined ? { scope: options.scope } : {}),
  };
}
