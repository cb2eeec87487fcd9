import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Displaymanager, type ToolResultData } from "glove-core";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { bridgeMcpTools, connectMcp, type McpCatalogueEntry, type McpConnection } from "glove-mcp";
import { beginMcpOAuth, McpOAuthError, MemoryOAuthStore, runMcpOAuth, type RunMcpOAuthOptions } from "glove-mcp/oauth";
import { startScopedMcp } from "./support/machine-auth-server.js";
import type { ProtectedMcp } from "./support/oauth-server.js";
import { protectedFronts } from "./support/protected-fronts.js";
import type { SdkHttpServer } from "./support/sdk-http-server.js";

// The README's configuration for a plain bearer token: runMcpOAuth stores the tokens, connectMcp's
// getAccessToken reads them, and on `insufficient_scope` the app runs runMcpOAuth again with the
// required scope and `force: true`. The server lists its tools only for "mcp:tools" and runs
// `deploy` only for "mcp:admin", so a step-up that dropped "mcp:tools" would lose the tool list.
const fronts = protectedFronts();
let front: ProtectedMcp;
let scoped: SdkHttpServer;
beforeAll(async () => {
  front = await fronts.start({ discovery: "www-authenticate" });
  scoped = await startScopedMcp(
    { issuer: `${front.issuer}/`, scopesOf: (token) => front.provider.tokens.get(token)?.scopes },
    () => {
      const server = new McpServer({ name: "deployer", version: "1.0.0" });
      server.registerTool("deploy", { description: "deploy" }, () => ({
        content: [{ type: "text", text: "deployed" }],
      }));
      return server;
    },
    { deploy: "mcp:admin" },
    { listScope: "mcp:tools" },
  );
});
afterAll(async () => {
  await scoped?.stop();
});

const entry = (): McpCatalogueEntry => ({ id: "deployer", name: "Deployer", description: "d", url: scoped.url });

/** The user approves in the "browser": the authorization page redirects to runMcpOAuth's listener. */
async function approve(url: URL): Promise<void> {
  const page = await fetch(url, { redirect: "manual" });
  await fetch(page.headers.get("location")!);
}

function terminalLogin(store: MemoryOAuthStore): RunMcpOAuthOptions {
  return { serverUrl: scoped.url, store, key: "deployer", port: 0, openBrowser: approve, log: () => undefined };
}

async function deploy(connection: McpConnection): Promise<ToolResultData> {
  const fold = bridgeMcpTools(connection, true).find((f) => f.name === "deployer__deploy")!;
  return (await fold.do({}, new Displaymanager(), undefined as never)) as ToolResultData;
}

const scopesOf = (token: string) => front.provider.tokens.get(token)!.scopes;

describe("step-up with getAccessToken and runMcpOAuth, as the README advises", () => {
  it("asks for the required scope plus the held ones, and the live connection uses the new token", async () => {
    const store = new MemoryOAuthStore();
    const first = await runMcpOAuth(terminalLogin(store)); // the challenge's scope: mcp:tools
    expect(scopesOf(first.tokens.access_token)).toEqual(["mcp:tools"]);
    expect(first.tokens.refresh_token).toBeTruthy();

    const connection = await connectMcp(entry(), {
      getAccessToken: async () => (await store.get("deployer")).tokens?.access_token,
    });
    try {
      const refused = await deploy(connection);
      expect(refused).toMatchObject({ status: "error", message: "insufficient_scope" });
      const requiredScope = (refused.data as { requiredScope: string }).requiredScope;
      expect(requiredScope).toBe("mcp mcp:admin");

      const stepped = await runMcpOAuth({ ...terminalLogin(store), scope: requiredScope, force: true });
      // A new authorization (the narrow refresh token was not exchanged), for the challenge plus what was held.
      expect(stepped.reused).toBe(false);
      expect(front.provider.authorizeRequests.at(-1)!.scopes).toEqual(["mcp", "mcp:admin", "mcp:tools"]);
      expect(scopesOf(stepped.tokens.access_token)).toEqual(["mcp", "mcp:admin", "mcp:tools"]);
      expect(stepped.verified).toEqual({ tools: 1 }); // the tool list still answers

      // The connection met the 403 with the old token, reads the new one and goes on.
      expect(await deploy(connection)).toMatchObject({ status: "success", data: "deployed" });
      expect(connection.tools.map((t) => t.name)).toEqual(["deploy"]);
    } finally {
      await connection.close();
    }
  });

  it("does not reuse a stored token that lacks the scope asked for, even without force", async () => {
    const store = new MemoryOAuthStore();
    await runMcpOAuth(terminalLogin(store));
    const before = front.provider.authorizeRequests.length;
    const again = await runMcpOAuth({ ...terminalLogin(store), scope: "mcp:admin" });
    expect(again.reused).toBe(false);
    expect(front.provider.authorizeRequests).toHaveLength(before + 1);
    expect(scopesOf(again.tokens.access_token)).toEqual(["mcp:admin", "mcp:tools"]);

    // A token that holds the scope is reused as before.
    const reused = await runMcpOAuth({ ...terminalLogin(store), scope: "mcp:tools" });
    expect(reused.reused).toBe(true);
    expect(front.provider.authorizeRequests).toHaveLength(before + 1);
  });

  it("beginMcpOAuth (a web app's first half) widens a step-up the same way instead of refreshing", async () => {
    const store = new MemoryOAuthStore();
    await runMcpOAuth(terminalLogin(store));
    const { tokens: held, clientInformation } = await store.get("deployer");
    // The web app's callback: here the one the client registered with.
    const redirectUrl = (clientInformation as { redirect_uris: string[] }).redirect_uris[0]!;
    const begun = await beginMcpOAuth({
      serverUrl: scoped.url,
      store,
      key: "deployer",
      redirectUrl,
      scope: "mcp mcp:admin",
    });
    expect(begun.status).toBe("redirect");
    if (begun.status !== "redirect") return;
    expect(begun.authorizationUrl.searchParams.get("scope")).toBe("mcp mcp:admin mcp:tools");
    expect((await store.get("deployer")).tokens).toEqual(held); // nothing refreshed

    // Asking again for what the token holds refreshes it without a browser, as before.
    const refreshed = await beginMcpOAuth({
      serverUrl: scoped.url,
      store,
      key: "deployer",
      redirectUrl,
      scope: "mcp:tools",
    });
    expect(refreshed.status).toBe("authorized");
  });

  it("knows what a token holds when the authorization server leaves scope out of its responses", async () => {
    front.provider.scopeInResponses = false;
    try {
      const store = new MemoryOAuthStore();
      const first = await runMcpOAuth({ ...terminalLogin(store), scope: "mcp:tools" });
      expect(first.tokens.scope).toBe("mcp:tools"); // what was asked for, hence granted
      const stepped = await runMcpOAuth({ ...terminalLogin(store), scope: "mcp mcp:admin", force: true });
      expect(front.provider.authorizeRequests.at(-1)!.scopes).toEqual(["mcp", "mcp:admin", "mcp:tools"]);
      expect(stepped.tokens.scope).toBe("mcp mcp:admin mcp:tools");
    } finally {
      front.provider.scopeInResponses = true;
    }
  });

  it("a verification the server refuses for scope says so in whole sentences (no '..')", async () => {
    const store = new MemoryOAuthStore();
    // A token for mcp:admin alone: the tool list (mcp:tools) answers 403 insufficient_scope.
    const error = await runMcpOAuth({ ...terminalLogin(store), scope: "mcp:admin" }).catch((e: unknown) => e);
    expect(McpOAuthError.isInstance(error) && error.step).toBe("verification");
    const message = (error as Error).message;
    expect(message).toContain('asks for "mcp mcp:tools"');
    expect(message).toContain("The new tokens are kept");
    expect(message).not.toMatch(/(^|[^.])\.\.($|[^.])/);
  });
});
