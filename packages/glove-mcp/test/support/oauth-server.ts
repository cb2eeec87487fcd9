import { randomUUID } from "node:crypto";
import type http from "node:http";
import type { AddressInfo } from "node:net";
import express, { type Response } from "express";
import { InvalidGrantError, InvalidTokenError } from "@modelcontextprotocol/sdk/server/auth/errors.js";
import type { OAuthRegisteredClientsStore } from "@modelcontextprotocol/sdk/server/auth/clients.js";
import { requireBearerAuth } from "@modelcontextprotocol/sdk/server/auth/middleware/bearerAuth.js";
import type { AuthorizationParams, OAuthServerProvider } from "@modelcontextprotocol/sdk/server/auth/provider.js";
import {
  createOAuthMetadata,
  mcpAuthMetadataRouter,
  mcpAuthRouter,
} from "@modelcontextprotocol/sdk/server/auth/router.js";
import type { AuthInfo } from "@modelcontextprotocol/sdk/server/auth/types.js";
import type { OAuthClientInformationFull, OAuthTokens } from "@modelcontextprotocol/sdk/shared/auth.js";
import { forwardRequest } from "./auth-proxy.js";

interface IssuedToken {
  clientId: string;
  scopes: string[];
  expiresAt: number;
  resource?: URL;
}

/**
 * An in-memory OAuthServerProvider for the SDK's auth router. `authorize` stands in for the
 * consent page: it approves at once and redirects back with a code (the browser round trip,
 * redirect-URI and PKCE checks are the router's own).
 */
export class TestAuthProvider implements OAuthServerProvider {
  readonly clients = new Map<string, OAuthClientInformationFull>();
  readonly codes = new Map<
    string,
    { clientId: string; challenge: string; redirectUri: string; scopes: string[]; resource?: URL }
  >();
  readonly tokens = new Map<string, IssuedToken>();
  readonly refreshTokens = new Map<string, { clientId: string; scopes: string[] }>();
  readonly authorizeRequests: AuthorizationParams[] = [];
  registrations = 0;
  lifetimeSeconds = 3600;
  /** Token responses name the granted `scope` (RFC 6749 lets a server leave it out when it is the one asked for). */
  scopeInResponses = true;
  /** RFC 9207: what `iss` the authorization response carries (set by the test). */
  callbackIss: { mode: "none" } | { mode: "value"; value: string } = { mode: "none" };
  readonly clientsStore: OAuthRegisteredClientsStore;

  constructor(options: { dynamicRegistration: boolean }) {
    const store: OAuthRegisteredClientsStore = { getClient: (id) => this.clients.get(id) };
    if (options.dynamicRegistration) {
      store.registerClient = (client) => {
        this.registrations++;
        const full: OAuthClientInformationFull = {
          ...client,
          client_id: randomUUID(),
          client_id_issued_at: Math.floor(Date.now() / 1000),
        };
        this.clients.set(full.client_id, full);
        return full;
      };
    }
    this.clientsStore = store;
  }

  /** Adds a confidential client the way an operator would, out of band. */
  preRegister(redirectUri: string): { client_id: string; client_secret: string } {
    const client = { client_id: `pre-${randomUUID()}`, client_secret: randomUUID() };
    this.clients.set(client.client_id, {
      ...client,
      redirect_uris: [redirectUri],
      token_endpoint_auth_method: "client_secret_post",
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
    });
    return client;
  }

  async authorize(client: OAuthClientInformationFull, params: AuthorizationParams, res: Response): Promise<void> {
    this.authorizeRequests.push(params);
    const code = randomUUID();
    this.codes.set(code, {
      clientId: client.client_id,
      challenge: params.codeChallenge,
      redirectUri: params.redirectUri,
      scopes: params.scopes ?? [],
      ...(params.resource ? { resource: params.resource } : {}),
    });
    const target = new URL(params.redirectUri);
    target.searchParams.set("code", code);
    if (params.state !== undefined) target.searchParams.set("state", params.state);
    if (this.callbackIss.mode === "value") target.searchParams.set("iss", this.callbackIss.value);
    res.redirect(302, target.href);
  }

  async challengeForAuthorizationCode(_client: OAuthClientInformationFull, code: string): Promise<string> {
    const pending = this.codes.get(code);
    if (!pending) throw new InvalidGrantError("Unknown authorization code");
    return pending.challenge;
  }

  async exchangeAuthorizationCode(
    client: OAuthClientInformationFull,
    code: string,
    _verifier?: string,
    redirectUri?: string,
  ): Promise<OAuthTokens> {
    const pending = this.codes.get(code);
    if (!pending || pending.clientId !== client.client_id) throw new InvalidGrantError("Unknown authorization code");
    if (redirectUri !== undefined && redirectUri !== pending.redirectUri)
      throw new InvalidGrantError("redirect_uri mismatch");
    this.codes.delete(code);
    return this.issue(client.client_id, pending.scopes, pending.resource);
  }

  async exchangeRefreshToken(client: OAuthClientInformationFull, refreshToken: string): Promise<OAuthTokens> {
    const known = this.refreshTokens.get(refreshToken);
    if (!known || known.clientId !== client.client_id) throw new InvalidGrantError("Unknown refresh token");
    this.refreshTokens.delete(refreshToken);
    return this.issue(client.client_id, known.scopes);
  }

  async verifyAccessToken(token: string): Promise<AuthInfo> {
    const issued = this.tokens.get(token);
    if (!issued) throw new InvalidTokenError("Unknown token");
    return { token, clientId: issued.clientId, scopes: issued.scopes, expiresAt: issued.expiresAt };
  }

  /** Makes every issued access token expired, as the clock would. */
  expireAll(): void {
    for (const issued of this.tokens.values()) issued.expiresAt = Math.floor(Date.now() / 1000) - 10;
  }

  private issue(clientId: string, scopes: string[], resource?: URL): OAuthTokens {
    const access = randomUUID();
    const refresh = randomUUID();
    this.tokens.set(access, {
      clientId,
      scopes,
      expiresAt: Math.floor(Date.now() / 1000) + this.lifetimeSeconds,
      ...(resource ? { resource } : {}),
    });
    this.refreshTokens.set(refresh, { clientId, scopes });
    return {
      access_token: access,
      token_type: "Bearer",
      expires_in: this.lifetimeSeconds,
      refresh_token: refresh,
      ...(scopes.length && this.scopeInResponses ? { scope: scopes.join(" ") } : {}),
    };
  }
}

async function listen(app: express.Express): Promise<{ server: http.Server; origin: string }> {
  return new Promise((resolve) => {
    const server = app.listen(0, "127.0.0.1", () => {
      resolve({ server, origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}` });
    });
  });
}

async function close(server: http.Server): Promise<void> {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
}

export interface ProtectedMcp {
  /** The protected MCP endpoint. */
  url: string;
  provider: TestAuthProvider;
  /** Authorization server origin (its own port). */
  issuer: string;
  /** Paths requested on the resource server, for asserting which discovery route was used. */
  resourceRequests: string[];
  /** Raw Dynamic Client Registration request bodies, before the router strips unknown fields. */
  registrationBodies: Array<Record<string, unknown>>;
  stop(): Promise<void>;
}

/**
 * An OAuth-protected MCP server on loopback: an authorization server on the SDK's auth router,
 * and on another port a resource server that checks bearer tokens with the SDK's middleware and
 * forwards to a real MCP server. `discovery` picks how clients learn where to authorize:
 * `"www-authenticate"` serves the resource metadata at a non-standard path named only in the 401
 * challenge; `"well-known"` serves it at the RFC 9728 path and leaves it out of the challenge.
 */
export async function startProtectedMcp(options: {
  upstream: URL;
  discovery: "www-authenticate" | "well-known";
  dynamicRegistration?: boolean;
  /** Advertise `authorization_response_iss_parameter_supported` in the AS metadata. */
  advertiseIss?: boolean;
}): Promise<ProtectedMcp> {
  const provider = new TestAuthProvider({ dynamicRegistration: options.dynamicRegistration ?? true });

  const asApp = express();
  const asServer = await listen(asApp);
  const issuerUrl = new URL(`${asServer.origin}/`);
  const registrationBodies: Array<Record<string, unknown>> = [];
  asApp.post("/register", express.json(), (req, _res, next) => {
    registrationBodies.push({ ...(req.body as Record<string, unknown>) });
    next();
  });
  if (options.advertiseIss) {
    asApp.get("/.well-known/oauth-authorization-server", (_req, res) => {
      res.json({
        ...createOAuthMetadata({ provider, issuerUrl, scopesSupported: ["mcp:tools"] }),
        authorization_response_iss_parameter_supported: true,
      });
    });
  }
  asApp.use(
    mcpAuthRouter({
      provider,
      issuerUrl,
      scopesSupported: ["mcp:tools"],
      authorizationOptions: { rateLimit: false },
      clientRegistrationOptions: { rateLimit: false },
      tokenOptions: { rateLimit: false },
      revocationOptions: { rateLimit: false },
    }),
  );

  const rsApp = express();
  const resourceRequests: string[] = [];
  rsApp.use((req, _res, next) => {
    resourceRequests.push(req.path);
    next();
  });
  const rs = await listen(rsApp);
  const mcpUrl = new URL(`${rs.origin}${options.upstream.pathname}`);
  const oauthMetadata = createOAuthMetadata({ provider, issuerUrl, scopesSupported: ["mcp:tools"] });
  let resourceMetadataUrl: string | undefined;
  if (options.discovery === "well-known") {
    rsApp.use(mcpAuthMetadataRouter({ oauthMetadata, resourceServerUrl: mcpUrl, scopesSupported: ["mcp:tools"] }));
  } else {
    resourceMetadataUrl = `${rs.origin}/meta/protected-resource`;
    rsApp.get("/meta/protected-resource", (_req, res) => {
      res.json({ resource: mcpUrl.href, authorization_servers: [issuerUrl.href], scopes_supported: ["mcp:tools"] });
    });
  }
  const guard = requireBearerAuth({ verifier: provider, ...(resourceMetadataUrl ? { resourceMetadataUrl } : {}) });
  rsApp.all(mcpUrl.pathname, guard, (req, res) => forwardRequest(options.upstream, req, res));

  return {
    url: mcpUrl.href,
    provider,
    issuer: asServer.origin,
    resourceRequests,
    registrationBodies,
    async stop() {
      await Promise.all([close(rs.server), close(asServer.server)]);
    },
  };
}
