import type { OAuthDiscoveryState } from "@modelcontextprotocol/sdk/client/auth.js";
import { McpOAuthError } from "./errors.js";

const trimmed = (url: string) => url.replace(/\/+$/, "");

/**
 * RFC 8414 §3.3: authorization-server metadata must name as `issuer` the issuer its well-known URL
 * was built from. A document naming another (a poisoned or misrouted one) would send the user's
 * login and the client's credentials to endpoints nobody vouched for, so discovery stops there.
 * Checked when discovery results are saved, before anything is registered or sent, for issuers
 * named by protected-resource metadata; the 2025-03-26 fallback (no such metadata, the MCP server's
 * origin taken as the authorization server) made no such promise, and servers of that era differ.
 */
export function checkMetadataIssuer(state: OAuthDiscoveryState): void {
  const issuer = (state.authorizationServerMetadata as { issuer?: unknown } | undefined)?.issuer;
  if (typeof issuer !== "string" || !state.authorizationServerUrl || !state.resourceMetadata) return;
  if (trimmed(issuer) === trimmed(state.authorizationServerUrl)) return;
  throw new McpOAuthError(
    "discovery",
    `The authorization server metadata fetched for ${state.authorizationServerUrl} names another issuer (${issuer}); it is not used. Check the MCP server's authorization_servers entry.`,
  );
}
