import { describe, expect, it } from "vitest";
import { ConfigurationError } from "glove-core";
import { connectMcp } from "glove-mcp";
import {
  beginMcpOAuth,
  buildClientMetadata,
  completeMcpOAuth,
  McpOAuthError,
  McpOAuthProvider,
  MemoryOAuthStore,
  type McpOAuthFlowOptions,
} from "glove-mcp/oauth";
import { protectedFronts } from "./support/protected-fronts.js";

// Pre-registered credentials belong to one authorization server. `preRegisteredClient.issuer` pins
// them there: an MCP server whose metadata names another authorization server never receives them.
const fronts = protectedFronts();
const redirectUrl = "http://127.0.0.1:9/oauth/mail/callback";

async function preRegisteredFront() {
  const front = await fronts.start({ discovery: "www-authenticate", dynamicRegistration: false });
  return { front, client: front.provider.preRegister(redirectUrl) };
}

describe("preRegisteredClient.issuer", () => {
  it("lets the login through to the authorization server it names (a trailing slash aside)", async () => {
    const { front, client } = await preRegisteredFront();
    for (const issuer of [front.issuer, `${front.issuer}/`]) {
      const flow: McpOAuthFlowOptions = {
        serverUrl: front.url,
        store: new MemoryOAuthStore(),
        key: "mail",
        redirectUrl,
        preRegisteredClient: { ...client, issuer },
      };
      const begun = await beginMcpOAuth(flow);
      if (begun.status !== "redirect") throw new Error("expected a redirect");
      expect(begun.authorizationUrl.searchParams.get("client_id")).toBe(client.client_id);
      const page = await fetch(begun.authorizationUrl, { redirect: "manual" });
      const tokens = await completeMcpOAuth(
        flow,
        Object.fromEntries(new URL(page.headers.get("location")!).searchParams),
      );
      expect(front.provider.tokens.get(tokens.access_token)?.clientId).toBe(client.client_id);
    }
  });

  it("stops before anything is sent when the MCP server uses another authorization server, saying what to set", async () => {
    const { front, client } = await preRegisteredFront();
    const elsewhere = "https://auth.example.com";
    const store = new MemoryOAuthStore();
    const error = await beginMcpOAuth({
      serverUrl: front.url,
      store,
      key: "mail",
      redirectUrl,
      preRegisteredClient: { ...client, issuer: elsewhere },
    }).catch((e: unknown) => e);
    expect(McpOAuthError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ step: "discovery" });
    const message = (error as Error).message;
    expect(message).toContain(client.client_id);
    expect(message).toContain(elsewhere);
    expect(message).toContain(`${front.issuer}/`);
    expect(message).toContain("preRegisteredClient.issuer");
    // The authorization server saw no authorization request and issued nothing.
    expect(front.provider.authorizeRequests).toEqual([]);
    expect(front.provider.tokens.size).toBe(0);
    expect((await store.get("mail")).state).toBeUndefined();
  });

  it("holds for McpOAuthProvider as connectMcp's authProvider too: a typed error, no credentials sent", async () => {
    const { front, client } = await preRegisteredFront();
    const opened: URL[] = [];
    const provider = new McpOAuthProvider({
      store: new MemoryOAuthStore(),
      key: "mail",
      redirectUrl,
      clientMetadata: buildClientMetadata({ redirectUrl }),
      preRegisteredClient: { ...client, issuer: "https://auth.example.com/" },
      onAuthorizationUrl: (url) => void opened.push(url),
    });
    const error = await connectMcp(
      { id: "mail", name: "Mail", description: "m", url: front.url },
      { authProvider: provider },
    ).catch((e: unknown) => e);
    expect(McpOAuthError.isInstance(error) && error.step).toBe("discovery");
    expect(opened).toEqual([]);
    expect(front.provider.authorizeRequests).toEqual([]);
  });

  it("must be an http(s) URL: anything else is a ConfigurationError when the provider is built", () => {
    for (const issuer of ["auth.example.com", "", "ftp://auth.example.com"]) {
      let thrown: unknown;
      try {
        new McpOAuthProvider({
          store: new MemoryOAuthStore(),
          key: "mail",
          redirectUrl,
          clientMetadata: buildClientMetadata({ redirectUrl }),
          preRegisteredClient: { client_id: "c", issuer },
        });
      } catch (error) {
        thrown = error;
      }
      expect(ConfigurationError.isInstance(thrown), issuer).toBe(true);
      expect((thrown as Error).message).toContain("preRegisteredClient.issuer");
    }
  });
});
