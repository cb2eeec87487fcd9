import { afterAll, beforeAll, describe, expect, it } from "vitest";
import fc from "fast-check";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { ConfigurationError } from "glove-core";
import { connectMcp } from "glove-mcp";
import {
  beginMcpOAuth,
  buildClientMetadata,
  clientMetadataDocument,
  CrossAppAccessProvider,
  McpOAuthError,
  McpOAuthProvider,
  MemoryOAuthStore,
  WorkloadIdentityProvider,
} from "glove-mcp/oauth";
import { startMachineAuth, startScopedMcp, type MachineAuth } from "./support/machine-auth-server.js";

// An authorization server taking RFC 7523's JWT-bearer grant (and a stand-in enterprise identity
// provider doing RFC 8693 token exchanges), in front of an SDK-built MCP server.
let auth: MachineAuth;
let mcp: Awaited<ReturnType<typeof startScopedMcp>>;
const entry = () => ({ id: "ops", name: "Ops", description: "d", url: mcp.url });

beforeAll(async () => {
  auth = await startMachineAuth();
  auth.clients.set("portal", { secret: "portal-secret", allowedScopes: [] });
  mcp = await startScopedMcp(
    auth,
    () => {
      const server = new McpServer({ name: "ops", version: "1.0.0" });
      server.registerTool("status", { description: "status" }, () => ({ content: [{ type: "text", text: "green" }] }));
      return server;
    },
    {},
  );
});
afterAll(async () => {
  await mcp?.stop();
  await auth?.stop();
});

describe("WorkloadIdentityProvider", () => {
  it("trades the workload's identity token for an access token with the JWT-bearer grant", async () => {
    auth.assertions.set("k8s-sa-token", "system:serviceaccount:ops:agent");
    const asked: unknown[] = [];
    const provider = new WorkloadIdentityProvider({
      clientId: "ops-agent",
      expectedIssuer: auth.issuer,
      assertion: (audience) => {
        asked.push(audience);
        return "k8s-sa-token";
      },
    });
    const connection = await connectMcp(entry(), { authProvider: provider });
    try {
      expect(connection.tools.map((t) => t.name)).toEqual(["status"]);
    } finally {
      await connection.close();
    }
    // The assertion source learns where the token is for: the authorization server and the resource.
    expect(asked).toEqual([{ issuer: auth.issuer, resource: `${new URL(mcp.url).origin}/mcp` }]);
    expect(auth.tokens.get(provider.tokens()!.access_token)?.clientId).toBe("system:serviceaccount:ops:agent");
  });

  it("a refused assertion is final: one token request, then McpOAuthError (step token)", async () => {
    const before = auth.tokenRequests.length;
    const provider = new WorkloadIdentityProvider({
      clientId: "ops-agent",
      expectedIssuer: auth.issuer,
      assertion: "expired-token",
    });
    const error = await connectMcp(entry(), { authProvider: provider }).catch((e: unknown) => e);
    expect(McpOAuthError.isInstance(error) && error.step).toBe("token");
    expect(auth.tokenRequests.length - before).toBe(1);
  });

  it("never sends the assertion to an authorization server other than expectedIssuer", async () => {
    const before = auth.tokenRequests.length;
    const provider = new WorkloadIdentityProvider({
      clientId: "ops-agent",
      expectedIssuer: "https://auth.elsewhere.example",
      assertion: "k8s-sa-token",
    });
    await expect(connectMcp(entry(), { authProvider: provider })).rejects.toThrow();
    expect(auth.tokenRequests.length).toBe(before);
  });
});

describe("CrossAppAccessProvider", () => {
  /** The company portal: registered at the MCP server's authorization server, signed in at the IdP. */
  const portal = (idToken: string | (() => Promise<string>)) =>
    new CrossAppAccessProvider({
      clientId: "portal",
      clientSecret: "portal-secret",
      expectedIssuer: auth.issuer,
      idpTokenEndpoint: `${auth.issuer}/idp/token`,
      idpClientId: "portal-at-idp",
      idToken,
    });

  it("exchanges the user's ID token at the identity provider for an ID-JAG, then presents it with the client's secret", async () => {
    auth.idTokens.set("alice-id-token", "alice@corp.example");
    const provider = portal(async () => "alice-id-token");
    const connection = await connectMcp(entry(), { authProvider: provider });
    await connection.close();
    expect(auth.exchanges.at(-1)).toMatchObject({
      grant_type: "urn:ietf:params:oauth:grant-type:token-exchange",
      requested_token_type: "urn:ietf:params:oauth:token-type:id-jag",
      subject_token: "alice-id-token",
      subject_token_type: "urn:ietf:params:oauth:token-type:id_token",
      audience: auth.issuer,
      resource: `${new URL(mcp.url).origin}/mcp`,
      client_id: "portal-at-idp",
    });
    expect(auth.tokenRequests.at(-1)).toMatchObject({ clientId: "portal", method: "client_secret_basic" });
    expect(auth.tokens.get(provider.tokens()!.access_token)?.clientId).toBe("alice@corp.example");
  });

  it("an identity provider that refuses the exchange is an McpOAuthError carrying its error", async () => {
    const provider = portal("forged-id-token");
    const error = await connectMcp(entry(), { authProvider: provider }).catch((e: unknown) => e);
    expect(McpOAuthError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({
      step: "token",
      message: expect.stringContaining("invalid_grant (unknown ID token)"),
    });
  });
});

describe("client ID metadata documents", () => {
  const redirectUrl = "http://127.0.0.1:53682/callback";
  const provider = (clientMetadataUrl: string) =>
    new McpOAuthProvider({
      store: new MemoryOAuthStore(),
      key: "k",
      redirectUrl,
      clientMetadata: buildClientMetadata({ redirectUrl }),
      clientMetadataUrl,
    });

  it("the document names itself by its URL", () => {
    const url = "https://app.example/oauth/client.json";
    expect(clientMetadataDocument(url, buildClientMetadata({ redirectUrl }))).toMatchObject({
      client_id: url,
      redirect_uris: [redirectUrl],
    });
  });

  it("accepts any https URL with a path and refuses the rest with a ConfigurationError", () => {
    fc.assert(
      fc.property(fc.webUrl({ withQueryParameters: true }), fc.webPath(), (base, path) => {
        const url = new URL(base);
        url.hash = "";
        url.pathname = path;
        const ok = url.protocol === "https:" && url.pathname !== "/";
        const made = () => provider(url.href);
        if (ok) expect(made).not.toThrow();
        else expect(made).toThrow(ConfigurationError);
      }),
    );
    for (const bad of [
      "http://app.example/client.json",
      "https://app.example/",
      "https://app.example/c.json#x",
      "not a url",
    ]) {
      expect(() => provider(bad)).toThrow(/clientMetadataUrl must be an https URL/);
    }
  });
});

describe("authorization server metadata naming another issuer", () => {
  it("is not used: discovery stops with McpOAuthError before any registration or token request", async () => {
    const poisoned = await startMachineAuth({ advertisedIssuer: "https://attacker.example" });
    poisoned.assertions.set("k8s-sa-token", "agent");
    const guarded = await startScopedMcp(poisoned, () => new McpServer({ name: "x", version: "1.0.0" }), {});
    try {
      const workload = new WorkloadIdentityProvider({ clientId: "agent", assertion: "k8s-sa-token" });
      const error = await connectMcp(
        { id: "x", name: "X", description: "d", url: guarded.url },
        { authProvider: workload },
      ).catch((e: unknown) => e);
      expect(McpOAuthError.isInstance(error) && error.step).toBe("discovery");
      expect((error as Error).message).toContain("names another issuer (https://attacker.example)");

      const browserFlow = await beginMcpOAuth({
        serverUrl: guarded.url,
        store: new MemoryOAuthStore(),
        key: "x",
        redirectUrl: "http://127.0.0.1:9/cb",
      }).catch((e: unknown) => e);
      expect(McpOAuthError.isInstance(browserFlow) && browserFlow.step).toBe("discovery");
      expect(poisoned.tokenRequests).toEqual([]);
    } finally {
      await guarded.stop();
      await poisoned.stop();
    }
  });
});
