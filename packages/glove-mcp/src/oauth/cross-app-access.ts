import type { FetchLike } from "@modelcontextprotocol/sdk/shared/transport.js";
import { messageOf } from "../errors.js";
import { endSentence } from "../sentence.js";
import { McpOAuthError } from "./errors.js";
import { JwtBearerGrantProvider, type AssertionAudience, type JwtBearerClientOptions } from "./jwt-bearer-grant.js";

const TOKEN_EXCHANGE_GRANT = "urn:ietf:params:oauth:grant-type:token-exchange";
const ID_TOKEN_TYPE = "urn:ietf:params:oauth:token-type:id_token";
/** The Identity Assertion JWT Authorization Grant the enterprise IdP issues. */
const ID_JAG_TYPE = "urn:ietf:params:oauth:token-type:id-jag";

/** Options of `CrossAppAccessProvider`: the MCP client registration, the enterprise IdP and the user's ID token. */
export interface CrossAppAccessProviderOptions extends JwtBearerClientOptions {
  /** The enterprise identity provider's token endpoint, where the ID token is exchanged. */
  idpTokenEndpoint: string | URL;
  /** This app's client id at the identity provider (the one its ID token was issued to). */
  idpClientId: string;
  idpClientSecret?: string;
  /** The user's OpenID Connect ID token from the app's enterprise login; a function is asked each time (tokens expire). */
  idToken: string | (() => string | Promise<string>);
  fetch?: FetchLike;
}

/**
 * Cross-app access (enterprise-managed authorization, SEP-990): a user signed in to the app
 * through the company's identity provider reaches an MCP server without another consent screen.
 * The ID token is exchanged at the IdP (RFC 8693) for an ID-JAG addressed to the MCP server's
 * authorization server, which the app then presents there with RFC 7523's JWT-bearer grant.
 * Pass it as `connectMcp`'s `authProvider`; the IdP's policy decides who gets in.
 */
export class CrossAppAccessProvider extends JwtBearerGrantProvider {
  constructor(private readonly options: CrossAppAccessProviderOptions) {
    super(options);
  }

  protected async assertion(audience: AssertionAudience, scope: string | undefined): Promise<string> {
    if (!audience.resource) {
      throw new McpOAuthError(
        "discovery",
        "The MCP server publishes no protected-resource metadata, so there is no resource to ask the identity provider for.",
      );
    }
    const idToken = typeof this.options.idToken === "string" ? this.options.idToken : await this.options.idToken();
    const body = new URLSearchParams({
      grant_type: TOKEN_EXCHANGE_GRANT,
      requested_token_type: ID_JAG_TYPE,
      subject_token: idToken,
      subject_token_type: ID_TOKEN_TYPE,
      audience: audience.issuer,
      resource: audience.resource,
      client_id: this.options.idpClientId,
      ...(this.options.idpClientSecret ? { client_secret: this.options.idpClientSecret } : {}),
      ...(scope ? { scope } : {}),
    });
    const endpoint = String(this.options.idpTokenEndpoint);
    let response: Response;
    try {
      response = await (this.options.fetch ?? fetch)(endpoint, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded", accept: "application/json" },
        body,
      });
    } catch (error) {
      throw new McpOAuthError("token", `Could not reach the identity provider at ${endpoint}: ${messageOf(error)}`, {
        cause: error,
      });
    }
    const answer = (await response.json().catch(() => ({}))) as {
      access_token?: unknown;
      issued_token_type?: unknown;
      error?: unknown;
      error_description?: unknown;
    };
    if (!response.ok || typeof answer.access_token !== "string") {
      const why =
        typeof answer.error === "string"
          ? `${answer.error}${typeof answer.error_description === "string" ? ` (${answer.error_description})` : ""}`
          : `HTTP ${response.status}`;
      throw new McpOAuthError(
        "token",
        endSentence(`The identity provider refused to exchange the ID token for an authorization grant: ${why}`),
      );
    }
    if (answer.issued_token_type !== undefined && answer.issued_token_type !== ID_JAG_TYPE) {
      throw new McpOAuthError(
        "token",
        `The identity provider issued a ${String(answer.issued_token_type)}, not an ID-JAG.`,
      );
    }
    return answer.access_token;
  }
}
