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

/**
 * Registration metadata with OpenID Connect's `application_type`, which the SDK's type leaves out
 * but authorization servers read to decide which redirect URIs a client may use.
 */
export type McpClientMetadata = OAuthClientMetadata & { application_type?: "native" | "web" };

const LOOPBACK_HOSTS = new Set(["127.0.0.1", "localhost", "[::1]"]);

/**
 * "native" for a loopback redirect URI (or a private-use scheme, as desktop and mobile apps
 * register), "web" for an https/http callback on a real host.
 */
export function applicationTypeFor(redirectUrl: string): "native" | "web" {
  let url: URL;
  try {
    url = new URL(redirectUrl);
  } catch {
    return "web";
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return "native";
  return LOOPBACK_HOSTS.has(url.hostname) ? "native" : "web";
}

/** The loopback redirect URI `runMcpOAuth` listens on. */
export function loopbackRedirectUrl(port: number, callbackPath = "/callback"): string {
  return `http://127.0.0.1:${port}${callbackPath.startsWith("/") ? "" : "/"}${callbackPath}`;
}

/** Dynamic Client Registration metadata for a public client (PKCE, no secret). */
export function buildClientMetadata(options: BuildClientMetadataOptions): McpClientMetadata {
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
    application_type: applicationTypeFor(redirectUrl),
    ...(options.scope !== undefined ? { scope: options.scope } : {}),
  };
}
