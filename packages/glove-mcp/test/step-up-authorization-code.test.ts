import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Displaymanager } from "glove-core";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { bridgeMcpTools, connectMcp } from "glove-mcp";
import {
  beginMcpOAuth,
  buildClientMetadata,
  completeMcpOAuth,
  McpOAuthError,
  McpOAuthProvider,
  MemoryOAuthStore,
  runMcpOAuth,
  type McpOAuthFlowOptions,
} from "glove-mcp/oauth";
import { startScopedMcp } from "./support/machine-auth-server.js";
import type { ProtectedMcp } from "./support/oauth-server.js";
import { protectedFronts } from "./support/protected-fronts.js";
import type { SdkHttpServer } from "./support/sdk-http-server.js";

// The SDK's auth router as authorization server; an SDK-built MCP server whose `deploy` tool
// needs "mcp:admin" on top of the "mcp:tools" the first authorization granted.
const fronts = protectedFronts();
let front: ProtectedMcp;
let scoped: SdkHttpServer;
beforeAll(async () => {
  front = await fronts.start({ discovery: "www-authenticate" });
  scoped = await startScopedMcp(
    { issuer: `${front.issuer}/`, scopesOf: (token) => front.provider.tokens.get(token)?.scopes },
    () => {
      const server = new McpServer({ name: "deployer", version: "1.0.0" });
      server.registerTool("status", { description: "status" }, () => ({ content: [{ type: "text", text: "green" }] }));
      server.registerTool("deploy", { description: "deploy" }, () => ({
        content: [{ type: "text", text: "deployed" }],
      }));
      return server;
    },
    { deploy: "mcp:admin" },
  );
});
afterAll(async () => {
  await scoped?.stop();
});

describe("scope step-up with an authorization-code provider", () => {
  it("asks the user to authorize the wider scope instead of refreshing the narrow token, and the model gets insufficient_scope", async () => {
    const store = new MemoryOAuthStore();
    const redirectUrl = "http://127.0.0.1:9/oauth/deployer/callback";
    // First authorization, on the scoped server, for mcp:tools only.
    const flow: McpOAuthFlowOptions = {
      serverUrl: scoped.url,
      store,
      key: "deployer",
      redirectUrl,
      scope: "mcp:tools",
    };
    const begun = await beginMcpOAuth(flow);
    if (begun.status !== "redirect") throw new Error("expected a redirect");
    const page = await fetch(begun.authorizationUrl, { redirect: "manual" });
    await completeMcpOAuth(flow, Object.fromEntries(new URL(page.headers.get("location")!).searchParams));
    const narrow = (await store.get("deployer")).tokens!;
    expect(front.provider.tokens.get(narrow.access_token)!.scopes).toEqual(["mcp:tools"]);
    expect(narrow.refresh_token).toBeTruthy();

    const opened: URL[] = [];
    const provider = new McpOAuthProvider({
      store,
      key: "deployer",
      redirectUrl,
      clientMetadata: buildClientMetadata({ redirectUrl, scope: "mcp:tools" }),
      onAuthorizationUrl: (url) => void opened.push(url),
    });
    const connection = await connectMcp(
      { id: "deployer", name: "Deployer", description: "d", url: scoped.url },
      { authProvider: provider },
    );
    try {
      const folds = bridgeMcpTools(connection, true);
      const run = (name: string) =>
        folds.find((f) => f.name === name)!.do({}, new Displaymanager(), undefined as never);
      expect(await run("deployer__status")).toMatchObject({ status: "success", data: "green" });
      expect(await run("deployer__deploy")).toMatchObject({
        status: "error",
        message: "insufficient_scope",
        data: { requiredScope: "mcp mcp:admin" }, // the challenge, verbatim
      });
      // The user is sent to authorize the challenged scope; the narrow token was not refreshed
      // into another narrow one.
      expect(opened).toHaveLength(1);
      // The challenged scope first, then the one the token holds (a re-authorization must not drop it).
      expect(opened[0]!.searchParams.get("scope")).toBe("mcp mcp:admin mcp:tools");
      expect((await store.get("deployer")).tokens!.access_token).toBe(narrow.access_token);
    } finally {
      await connection.close();
    }
  });
});

describe("runMcpOAuth's verification call", () => {
  it("keeps the tokens it got when the server refuses the verification call, and says so", async () => {
    const store = new MemoryOAuthStore();
    // The user approves in the "browser": the authorization page redirects to runMcpOAuth's listener.
    const openBrowser = async (url: URL) => {
      const page = await fetch(url, { redirect: "manual" });
      await fetch(page.headers.get("location")!);
    };
    const error = await runMcpOAuth({
      serverUrl: scoped.url,
      store,
      key: "deployer",
      port: 0,
      scope: "mcp:tools",
      openBrowser,
      log: () => undefined,
      verify: { type: "callTool", name: "deploy" }, // needs mcp:admin: the server answers 403
    }).catch((e: unknown) => e);
    expect(McpOAuthError.isInstance(error) && error.step).toBe("verification");
    expect((error as Error).message).toContain('new tokens are kept in the store under "deployer"');
    const kept = (await store.get("deployer")).tokens;
    expect(front.provider.tokens.get(kept!.access_token)!.scopes).toEqual(["mcp:tools"]);

    // The kept token works for what it was granted: an app can connect with it at once.
    const connection = await connectMcp(
      { id: "deployer", name: "Deployer", description: "d", url: scoped.url },
      { getAccessToken: async () => (await store.get("deployer")).tokens?.access_token },
    );
    try {
      expect(connection.tools.map((t) => t.name)).toContain("deploy");
    } finally {
      await connection.close();
    }
  });
});
