import type { OAuthClientMetadata } from "@modelcontextprotocol/sdk/shared/auth.js";

export interface BuildClientMetadataOptions {
  /** Loopback callback port. */
  port: number;
  /** Callback path, default `/callback`. */
  callbackPath?: string;
  clientName?: string;
  scope?: string;
}

/** Dynamic Client Registration metadata for a public (PKCE, no secret) loopback client. */
export function buildClientMetadata(options: BuildClientMetadataOptions): OAuthClientMetadata {
  const callbackPath = options.callbackPath ?? "/callback";
  return {
    client_name: options.clientName ?? "glove-mcp",
    redirect_uris: [`http://127.0.0.1:${options.port}${callbackPath.startsWith("/") ? "" : "/"}${callbackPath}`],
    grant_types: ["authorization_code", "refresh_token"],
    response_types: ["code"],
    token_endpoint_auth_method: "none",
    ...(options.scope !== undefined ? { scope: options.scope } : {}),
  };
}
