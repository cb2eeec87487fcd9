import type { OAuthClientProvider, OAuthDiscoveryState } from "@modelcontextprotocol/sdk/client/auth.js";
import type {
  OAuthClientInformationMixed,
  OAuthClientMetadata,
  OAuthTokens,
} from "@modelcontextprotocol/sdk/shared/auth.js";
import { McpOAuthError } from "./errors.js";
import { checkMetadataIssuer } from "./metadata-issuer.js";

/** RFC 7523's grant type: a signed JWT (the assertion) is traded for an access token. */
export const JWT_BEARER_GRANT = "urn:ietf:params:oauth:grant-type:jwt-bearer";

/** Where an assertion is needed: the authorization server and resource discovery found. */
export interface AssertionAudience {
  /** The authorization server's issuer identifier (its metadata's `issuer`, else its URL). */
  issuer: string;
  /** The MCP server's resource identifier (its protected-resource metadata), when it published one. */
  resource: string | undefined;
}

/** What every JWT-bearer provider takes: its client registration and the scope to ask for. */
export interface JwtBearerClientOptions {
  /** The client id at the MCP server's authorization server. */
  clientId: string;
  /** With a secret the token request authenticates with it (client_secret_basic/post); without, it is a public client. */
  clientSecret?: string;
  /** Requested scope; default: the server's challenge, then its advertised scopes. */
  scope?: string;
  clientName?: string;
  /**
   * The authorization server these credentials belong to (its URL as the MCP server names it).
   * Set it: the SDK then refuses to send them to any other, whatever an MCP server advertises.
   */
  expectedIssuer?: string;
}

/**
 * The shared machinery of non-interactive providers whose token request is RFC 7523's JWT-bearer
 * grant: no redirect, no browser, the client registration given, tokens and discovery in memory.
 * A subclass supplies the assertion. A refused grant is final: the SDK's automatic second attempt
 * (after `invalidateCredentials`) fails with an McpOAuthError instead of sending the same
 * assertion again or falling back to another grant.
 */
export abstract class JwtBearerGrantProvider implements OAuthClientProvider {
  private saved: OAuthTokens | undefined;
  private discovery: OAuthDiscoveryState | undefined;
  private refused = false;

  protected constructor(protected readonly client: JwtBearerClientOptions) {}

  /** The assertion to present, for the authorization server and resource discovery found. */
  protected abstract assertion(audience: AssertionAudience, scope: string | undefined): Promise<string>;

  get redirectUrl(): undefined {
    return undefined;
  }

  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: this.client.clientName ?? "glove-mcp",
      redirect_uris: [],
      grant_types: [JWT_BEARER_GRANT],
      token_endpoint_auth_method: this.client.clientSecret ? "client_secret_basic" : "none",
      ...(this.client.scope ? { scope: this.client.scope } : {}),
    };
  }

  clientInformation(): OAuthClientInformationMixed {
    return {
      client_id: this.client.clientId,
      ...(this.client.clientSecret ? { client_secret: this.client.clientSecret } : {}),
      ...(this.client.expectedIssuer ? { issuer: this.client.expectedIssuer } : {}),
    };
  }

  tokens(): OAuthTokens | undefined {
    return this.saved;
  }

  saveTokens(tokens: OAuthTokens): void {
    this.saved = tokens;
    this.refused = false;
  }

  saveDiscoveryState(state: OAuthDiscoveryState): void {
    checkMetadataIssuer(state);
    this.discovery = state;
  }

  discoveryState(): OAuthDiscoveryState | undefined {
    return this.discovery;
  }

  invalidateCredentials(scope: "all" | "client" | "tokens" | "verifier" | "discovery"): void {
    // The SDK calls this right after the token endpoint refused the grant, then tries once more.
    if (scope === "all" || scope === "tokens") {
      this.saved = undefined;
      this.refused = true;
    }
    if (scope === "all" || scope === "discovery") this.discovery = undefined;
  }

  async prepareTokenRequest(scope?: string): Promise<URLSearchParams> {
    if (this.refused) {
      this.refused = false;
      throw new McpOAuthError(
        "token",
        "The authorization server refused the JWT-bearer grant; the same assertion is not sent again. Check the assertion's audience, expiry and the requested scope.",
      );
    }
    const requested = this.client.scope ?? scope;
    const assertion = await this.assertion(this.audience(), requested);
    return new URLSearchParams({ grant_type: JWT_BEARER_GRANT, assertion, ...(requested ? { scope: requested } : {}) });
  }

  redirectToAuthorization(): never {
    throw new McpOAuthError(
      "authorization",
      "A JWT-bearer client cannot send a user to authorize; its grant was refused.",
    );
  }

  saveCodeVerifier(): void {
    // No authorization-code flow, so no PKCE verifier.
  }

  codeVerifier(): never {
    throw new McpOAuthError("token", "A JWT-bearer client has no PKCE code verifier.");
  }

  private audience(): AssertionAudience {
    const discovery = this.discovery;
    if (!discovery)
      throw new McpOAuthError("discovery", "The authorization server is not known yet: discovery has not run.");
    const issuer =
      (discovery.authorizationServerMetadata as { issuer?: string } | undefined)?.issuer ??
      discovery.authorizationServerUrl;
    return { issuer, resource: discovery.resourceMetadata?.resource };
  }
}
