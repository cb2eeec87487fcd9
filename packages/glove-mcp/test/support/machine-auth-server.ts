import { createPublicKey, randomUUID, verify, type KeyObject } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { startSdkHttpServer, type SdkHttpServer } from "./sdk-http-server.js";

/**
 * A machine-to-machine authorization server on 127.0.0.1 (the SDK's server side leaves out the
 * client_credentials grant): RFC 8414 metadata and a token endpoint taking client_secret_basic,
 * client_secret_post or private_key_jwt (RFC 7523, verified with node:crypto). A client gets the
 * scopes it asks for among those it is allowed; an unknown scope is `invalid_scope`.
 */
export interface MachineClient {
  allowedScopes: string[];
  secret?: string;
  /** PEM public key for private_key_jwt. */
  publicKey?: string;
}

interface Issued {
  clientId: string;
  scopes: string[];
}

export interface MachineAuth {
  issuer: string;
  clients: Map<string, MachineClient>;
  tokens: Map<string, Issued>;
  /** JWT-bearer grant (RFC 7523): the assertions accepted, each with the subject it names. */
  assertions: Map<string, string>;
  /**
   * A stand-in enterprise identity provider at `${issuer}/idp/token` (RFC 8693 token exchange):
   * the ID tokens it knows, with their subject. An exchange addressed to this server (audience,
   * resource given) returns a fresh ID-JAG, added to `assertions`.
   */
  idTokens: Map<string, string>;
  /** Each token exchange the identity provider answered: its form. */
  exchanges: Array<Record<string, string>>;
  /** Each token request: client, auth method and scope asked for. */
  tokenRequests: Array<{ clientId: string; method: string; scope: string | undefined }>;
  stop(): Promise<void>;
}

const JWT_BEARER = "urn:ietf:params:oauth:grant-type:jwt-bearer";

function b64urlJson(part: string): Record<string, unknown> {
  return JSON.parse(Buffer.from(part, "base64url").toString("utf8")) as Record<string, unknown>;
}

/** Checks an RS256/ES256 client assertion; returns its subject, or undefined. */
function verifyAssertion(
  assertion: string,
  clients: Map<string, MachineClient>,
  audiences: string[],
): string | undefined {
  const [head, body, signature] = assertion.split(".");
  if (!head || !body || !signature) return undefined;
  const header = b64urlJson(head);
  const claims = b64urlJson(body);
  const client = typeof claims.sub === "string" ? clients.get(claims.sub) : undefined;
  if (!client?.publicKey || claims.iss !== claims.sub) return undefined;
  if (typeof claims.exp !== "number" || claims.exp < Date.now() / 1000) return undefined;
  const aud = Array.isArray(claims.aud) ? claims.aud : [claims.aud];
  if (!aud.some((a) => audiences.includes(String(a)))) return undefined;
  const key: KeyObject = createPublicKey(client.publicKey);
  const data = Buffer.from(`${head}.${body}`);
  const sig = Buffer.from(signature, "base64url");
  const ok =
    header.alg === "ES256"
      ? verify("sha256", data, { key, dsaEncoding: "ieee-p1363" }, sig)
      : header.alg === "RS256"
        ? verify("sha256", data, key, sig)
        : false;
  return ok ? (claims.sub as string) : undefined;
}

/** `advertisedIssuer`: the `issuer` its metadata names, when a test needs it to lie. */
export async function startMachineAuth(options: { advertisedIssuer?: string } = {}): Promise<MachineAuth> {
  const clients = new Map<string, MachineClient>();
  const tokens = new Map<string, Issued>();
  const tokenRequests: MachineAuth["tokenRequests"] = [];
  const assertions = new Map<string, string>();
  const idTokens = new Map<string, string>();
  const exchanges: Array<Record<string, string>> = [];
  let issuer = "";
  const json = (res: http.ServerResponse, status: number, body: unknown) =>
    res
      .writeHead(status, { "content-type": "application/json", "cache-control": "no-store" })
      .end(JSON.stringify(body));
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const url = new URL(req.url ?? "/", issuer);
      if (req.method === "GET" && url.pathname === "/.well-known/oauth-authorization-server") {
        return json(res, 200, {
          issuer: options.advertisedIssuer ?? issuer,
          authorization_endpoint: `${issuer}/authorize`,
          token_endpoint: `${issuer}/token`,
          grant_types_supported: ["client_credentials", JWT_BEARER],
          token_endpoint_auth_methods_supported: ["client_secret_basic", "client_secret_post", "private_key_jwt"],
          token_endpoint_auth_signing_alg_values_supported: ["ES256", "RS256"],
          response_types_supported: ["code"],
        });
      }
      const form = new URLSearchParams(Buffer.concat(chunks).toString("utf8"));
      if (req.method === "POST" && url.pathname === "/idp/token") {
        exchanges.push(Object.fromEntries(form));
        const subject = idTokens.get(form.get("subject_token") ?? "");
        if (!subject) return json(res, 400, { error: "invalid_grant", error_description: "unknown ID token" });
        if (form.get("audience") !== issuer || !form.get("resource"))
          return json(res, 400, { error: "invalid_target" });
        const idJag = `id-jag-${randomUUID()}`;
        assertions.set(idJag, subject);
        return json(res, 200, {
          access_token: idJag,
          issued_token_type: "urn:ietf:params:oauth:token-type:id-jag",
          token_type: "N_A",
        });
      }
      if (req.method !== "POST" || url.pathname !== "/token") return json(res, 404, { error: "not_found" });
      let clientId: string | undefined;
      let method = "none";
      const basic = /^Basic (.+)$/i.exec(req.headers.authorization ?? "");
      if (basic) {
        const [id, secret] = Buffer.from(basic[1]!, "base64").toString("utf8").split(":").map(decodeURIComponent);
        if (id && clients.get(id)?.secret === secret) [clientId, method] = [id, "client_secret_basic"];
      } else if (form.get("client_assertion_type") === "urn:ietf:params:oauth:client-assertion-type:jwt-bearer") {
        clientId = verifyAssertion(form.get("client_assertion") ?? "", clients, [
          issuer,
          `${issuer}/`,
          `${issuer}/token`,
        ]);
        method = "private_key_jwt";
      } else if (form.get("client_secret")) {
        const id = form.get("client_id") ?? "";
        if (clients.get(id)?.secret === form.get("client_secret")) [clientId, method] = [id, "client_secret_post"];
      }
      const scope = form.get("scope") ?? undefined;
      if (form.get("grant_type") === JWT_BEARER) {
        // The assertion identifies the caller; a registered client may authenticate too.
        tokenRequests.push({ clientId: clientId ?? form.get("client_id") ?? "?", method, scope });
        const subject = assertions.get(form.get("assertion") ?? "");
        if (!subject) return json(res, 400, { error: "invalid_grant", error_description: "assertion not accepted" });
        const access = randomUUID();
        tokens.set(access, { clientId: subject, scopes: scope ? scope.split(" ") : [] });
        return json(res, 200, {
          access_token: access,
          token_type: "Bearer",
          expires_in: 3600,
          ...(scope ? { scope } : {}),
        });
      }
      tokenRequests.push({ clientId: clientId ?? "?", method, scope });
      if (!clientId) return json(res, 401, { error: "invalid_client" });
      if (form.get("grant_type") !== "client_credentials") return json(res, 400, { error: "unsupported_grant_type" });
      const asked = scope ? scope.split(" ") : [];
      const allowed = clients.get(clientId)!.allowedScopes;
      if (asked.some((s) => !allowed.includes(s))) return json(res, 400, { error: "invalid_scope" });
      const access = randomUUID();
      tokens.set(access, { clientId, scopes: asked });
      return json(res, 200, {
        access_token: access,
        token_type: "Bearer",
        expires_in: 3600,
        ...(scope ? { scope } : {}),
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    issuer,
    clients,
    tokens,
    tokenRequests,
    assertions,
    idTokens,
    exchanges,
    async stop() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/**
 * An SDK-built MCP server behind bearer checks against `auth`'s tokens: no or unknown token → 401
 * naming the protected-resource metadata; a `tools/call` of a tool listed in `toolScopes` without
 * that scope → 403 `insufficient_scope` asking for `scope="mcp <needed>"`.
 */
/** Any authorization server whose tokens the resource server can look up. */
export interface TokenAuthority {
  /** The `authorization_servers` entry of the protected-resource metadata. */
  issuer: string;
  scopesOf(token: string): string[] | undefined;
}

export async function startScopedMcp(
  auth: MachineAuth | TokenAuthority,
  build: () => McpServer,
  toolScopes: Record<string, string>,
  /**
   * `openHandshake`: `initialize`, notifications and the session's GET stream / DELETE pass without
   * a token (the first refusal comes at the tool list); `listScope`: the scope `tools/list` needs, also named in the 401 challenge.
   */
  guarding: { openHandshake?: boolean; listScope?: string } = {},
): Promise<SdkHttpServer & { metadataUrl: string }> {
  let origin = "";
  const metadataPath = "/.well-known/oauth-protected-resource/mcp";
  const server = await startSdkHttpServer(build, {
    guard(req, body) {
      if (req.url === metadataPath) {
        return {
          status: 200,
          body: JSON.stringify({
            resource: `${origin}/mcp`,
            authorization_servers: [auth.issuer],
            scopes_supported: ["mcp", "admin"],
          }),
        };
      }
      const call = body as { method?: string; params?: { name?: string } } | undefined;
      const handshake =
        req.method === "GET" ||
        req.method === "DELETE" ||
        call?.method === "initialize" ||
        call?.method?.startsWith("notifications/");
      if (guarding.openHandshake && handshake) return undefined;
      const token = /^Bearer (.+)$/.exec(req.headers.authorization ?? "")?.[1];
      const scopes = !token ? undefined : "scopesOf" in auth ? auth.scopesOf(token) : auth.tokens.get(token)?.scopes;
      if (!scopes) {
        const scope = guarding.listScope ? `, scope="${guarding.listScope}"` : "";
        return {
          status: 401,
          headers: {
            "www-authenticate": `Bearer error="invalid_token"${scope}, resource_metadata="${origin}${metadataPath}"`,
          },
          body: JSON.stringify({ error: "invalid_token" }),
        };
      }
      const needed =
        call?.method === "tools/call"
          ? toolScopes[call.params?.name ?? ""]
          : call?.method === "tools/list"
            ? guarding.listScope
            : undefined;
      if (needed && !scopes.includes(needed)) {
        return {
          status: 403,
          headers: {
            "www-authenticate": `Bearer error="insufficient_scope", scope="mcp ${needed}", resource_metadata="${origin}${metadataPath}"`,
          },
          body: `<html><body><h1>403 Forbidden</h1><p>raw upstream page ${"x".repeat(200)}</p></body></html>`,
        };
      }
      return undefined;
    },
  });
  origin = new URL(server.url).origin;
  return Object.assign(server, { metadataUrl: `${origin}${metadataPath}` });
}
