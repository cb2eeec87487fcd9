import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { UnauthorizedError } from "@modelcontextprotocol/sdk/client/auth.js";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { connectMcp, McpAuthError, McpInsufficientScopeError } from "glove-mcp";
import {
  beginMcpOAuth,
  buildClientMetadata,
  completeMcpOAuth,
  McpOAuthProvider,
  MemoryOAuthStore,
  type McpOAuthFlowOptions,
} from "glove-mcp/oauth";
import { startScopedMcp } from "./support/machine-auth-server.js";
import type { ProtectedMcp } from "./support/oauth-server.js";
import { protectedFronts } from "./support/protected-fronts.js";

// A server that lets the handshake through without a token and guards the tool list: a 401 with
// the scope it needs ("mcp:tools"), or a 403 insufficient_scope for a token without it. The SDK's
// auth router (the shared OAuth front) is the authorization server.
const fronts = protectedFronts();
let front: ProtectedMcp;
let guarded: Awaited<ReturnType<typeof startScopedMcp>>;
const entry = () => ({ id: "guarded", name: "Guarded", description: "d", url: guarded.url });

beforeAll(async () => {
  front = await fronts.start({ discovery: "www-authenticate" });
  guarded = await startScopedMcp(
    { issuer: `${front.issuer}/`, scopesOf: (token) => front.provider.tokens.get(token)?.scopes },
    () => {
      const server = new McpServer({ name: "guarded", version: "1.0.0" });
      server.registerTool("status", { description: "status" }, () => ({ content: [{ type: "text", text: "green" }] }));
      return server;
    },
    {},
    { openHandshake: true, listScope: "mcp:tools" },
  );
});
afterAll(async () => {
  await guarded?.stop();
});

/** Plays the user approving in the browser: the authorization page's redirect, as callback params. */
async function approve(url: URL): Promise<Record<string, string>> {
  const page = await fetch(url, { redirect: "manual" });
  return Object.fromEntries(new URL(page.headers.get("location")!).searchParams);
}

describe("a server that refuses the tool list, not the handshake", () => {
  it("a first 401 is McpAuthError; the app finishes the login the provider began and connects", async () => {
    const store = new MemoryOAuthStore();
    const redirectUrl = "http://127.0.0.1:9/oauth/guarded/callback";
    const opened: URL[] = [];
    const provider = new McpOAuthProvider({
      store,
      key: "guarded",
      redirectUrl,
      clientMetadata: buildClientMetadata({ redirectUrl }),
      onAuthorizationUrl: (url) => void opened.push(url),
    });
    const error = await connectMcp(entry(), { authProvider: provider }).catch((e: unknown) => e);
    expect(McpAuthError.isInstance(error)).toBe(true);
    expect((error as Error).name).toBe("McpAuthError");
    expect((error as Error & { cause?: Error }).cause).toBeInstanceOf(UnauthorizedError);
    // The provider sent the user to authorize the challenged scope.
    expect(opened).toHaveLength(1);
    expect(opened[0]!.searchParams.get("scope")).toBe("mcp:tools");

    // The app's callback route: the same store, key and redirect URL finish the login.
    const flow: McpOAuthFlowOptions = { serverUrl: guarded.url, store, key: "guarded", redirectUrl };
    await completeMcpOAuth(flow, await approve(opened[0]!));
    const connection = await connectMcp(entry(), { authProvider: provider });
    try {
      expect(connection.tools.map((t) => t.name)).toEqual(["status"]);
    } finally {
      await connection.close();
    }
  });

  it("a 403 insufficient_scope on the tool list is McpInsufficientScopeError naming the scope", async () => {
    const store = new MemoryOAuthStore();
    const flow: McpOAuthFlowOptions = {
      serverUrl: guarded.url,
      store,
      key: "narrow",
      redirectUrl: "http://127.0.0.1:9/cb",
      scope: "mcp:other",
    };
    const begun = await beginMcpOAuth(flow);
    if (begun.status !== "redirect") throw new Error("expected a redirect");
    const tokens = await completeMcpOAuth(flow, await approve(begun.authorizationUrl));
    expect(front.provider.tokens.get(tokens.access_token)!.scopes).toEqual(["mcp:other"]);

    const error = await connectMcp(entry(), { getAccessToken: async () => tokens.access_token }).catch(
      (e: unknown) => e,
    );
    expect(McpInsufficientScopeError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ requiredScope: "mcp mcp:tools", resourceMetadataUrl: guarded.metadataUrl });
  });

  it("without a token at all the refusal is McpAuthError, not the transport's error", async () => {
    const error = await connectMcp(entry(), { getAccessToken: async () => undefined }).catch((e: unknown) => e);
    expect(McpAuthError.isInstance(error)).toBe(true);
    expect((error as Error).message).toContain('MCP server "guarded" refused the token');
  });

  it("the OAuth probe asks for the scope that guards the tools, not the advertised scopes", async () => {
    const begun = await beginMcpOAuth({
      serverUrl: guarded.url,
      store: new MemoryOAuthStore(),
      key: "probe",
      redirectUrl: "http://127.0.0.1:9/cb",
    });
    if (begun.status !== "redirect") throw new Error("expected a redirect");
    expect(begun.authorizationUrl.searchParams.get("scope")).toBe("mcp:tools");
  });
});
