import { ConfigurationError } from "glove-core";
import type { McpClientMetadata } from "./metadata.js";

/**
 * Client ID Metadata Documents (CIMD): instead of registering, a client names itself by an https
 * URL, and the authorization server fetches its metadata from there. The URL must be https with a
 * path (`https://app.example/oauth/client.json`), as the MCP authorization spec requires.
 */
export function checkClientMetadataUrl(url: string): void {
  let parsed: URL | undefined;
  try {
    parsed = new URL(url);
  } catch {
    parsed = undefined;
  }
  if (!parsed || parsed.protocol !== "https:" || parsed.pathname === "/" || parsed.hash) {
    throw new ConfigurationError(
      `clientMetadataUrl must be an https URL with a path and no fragment, where the app serves its client metadata (got "${url}").`,
    );
  }
}

/**
 * The JSON an app serves at its `clientMetadataUrl`: its client metadata with `client_id` set to
 * that same URL (the authorization server checks they match). List every redirect URI the app uses.
 */
export function clientMetadataDocument(
  clientMetadataUrl: string,
  metadata: McpClientMetadata,
): McpClientMetadata & { client_id: string } {
  checkClientMetadataUrl(clientMetadataUrl);
  return { ...metadata, client_id: clientMetadataUrl };
}
