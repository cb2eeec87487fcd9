import type { OAuthDiscoveryState } from "@modelcontextprotocol/sdk/client/auth.js";
import { ConfigurationError } from "glove-core";
import { McpOAuthError } from "./errors.js";

/** A pinned issuer must be an http(s) URL; checked when the provider is built, not mid-login. */
export function checkIssuerPin(issuer: string): void {
  let parsed: URL | undefined;
  try {
    parsed = new URL(issuer);
  } catch {
    parsed = undefined;
  }
  if (!parsed || (parsed.protocol !== "https:" && parsed.protocol !== "http:")) {
    throw new ConfigurationError(
      `preRegisteredClient.issuer must be the issuer URL of the authorization server that issued the client (got "${issuer}").`,
    );
  }
}

/** Issuer URLs compared as parsed, a trailing slash aside (as the MCP SDK binds credentials). */
function sameIssuer(a: string, b: string): boolean {
  const normal = (url: string) => {
    try {
      return new URL(url).href.replace(/\/+$/, "");
    } catch {
      return url.replace(/\/+$/, "");
    }
  };
  return normal(a) === normal(b);
}

/**
 * Pre-registered credentials belong to one authorization server. When the MCP server's discovery
 * found another, they are not handed to the SDK (which would send them there): the flow stops and
 * the message says what to configure. Without recorded discovery there is nothing to compare; the
 * SDK's own binding (the `issuer` the credentials carry) then keeps them from another server.
 */
export function checkPinnedIssuer(
  client: { client_id: string; issuer?: string },
  discovery: OAuthDiscoveryState | undefined,
): void {
  const found = discovery?.authorizationServerUrl;
  if (client.issuer === undefined || found === undefined || sameIssuer(client.issuer, found)) return;
  throw new McpOAuthError(
    "discovery",
    `The pre-registered client "${client.client_id}" belongs to the authorization server ${client.issuer}, but this MCP server uses ${found}; its credentials are not sent there. Use the client registered with ${found} (and set preRegisteredClient.issuer to it), or check the MCP server URL.`,
  );
}
