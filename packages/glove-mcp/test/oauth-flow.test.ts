import { mkdtempSync, readFileSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { Displaymanager, Glove, MemoryStore, type Message } from "glove-core";
import { ScriptedModel } from "glove-core/testing";
import { connectMcp, mountMcp, type McpCatalogueEntry } from "glove-mcp";
import { TestAdapter } from "./support/adapter.js";
import {
  beginMcpOAuth,
  completeMcpOAuth,
  FsOAuthStore,
  McpOAuthError,
  MemoryOAuthStore,
  runMcpOAuth,
  startCallbackListener,
  type McpOAuthFlowOptions,
} from "glove-mcp/oauth";
import { protectedFronts } from "./support/protected-fronts.js";

const fronts = protectedFronts();

/** Plays the user's browser: follows the authorization page's redirect to the callback. */
function browser(edit?: (callback: URL) => void) {
  const opened: URL[] = [];
  const open = async (authorizationUrl: URL) => {
    opened.push(authorizationUrl);
    const page = await fetch(authorizationUrl, { redirect: "manual" });
    const location = page.headers.get("location");
    if (page.status !== 302 || !location) throw new Error(`authorize answered ${page.status}: ${await page.text()}`);
    const callback = new URL(location);
    edit?.(callback);
    await (await fetch(callback)).text();
  };
  return { opened, open };
}

/** A free loopback port, for flows that must keep one redirect URI across runs. */
async function freePort(): Promise<number> {
  const probe = await startCallbackListener(0);
  await probe.close();
  return probe.port;
}

function tempFile(): string {
  return path.join(mkdtempSync(path.join(tmpdir(), "glove-oauth-")), "tokens.json");
}

/** The adapter of the spec's example: bearer tokens read from the OAuth store. */
class StoreAdapter extends TestAdapter {
  constructor(private readonly store: FsOAuthStore) {
    super("oauth-convo");
  }
  override async getAccessToken(id: string) {
    const state = await this.store.get(id);
    if (state.tokens?.access_token) return state.tokens.access_token;
    throw new Error(`Run the auth command for ${id}`);
  }
}

describe("runMcpOAuth against the SDK's auth router", () => {
  it("discovers from WWW-Authenticate, registers, uses PKCE and state, persists and verifies; the token is reused, and expiry maps to auth_expired", async () => {
    const front = await fronts.start({ discovery: "www-authenticate" });
    const file = tempFile();
    const user = browser();
    const port = await freePort();
    const first = await runMcpOAuth({
      serverUrl: front.url,
      store: new FsOAuthStore(file),
      key: "everything",
      port,
      openBrowser: user.open,
      log: () => {},
    });

    expect(first.reused).toBe(false);
    expect(first.verified?.tools).toBeGreaterThan(5);
    expect(front.provider.registrations).toBe(1);
    // Discovery went through the URL named in the 401 challenge (no well-known route exists here).
    expect(front.resourceRequests).toContain("/meta/protected-resource");
    const authorizationUrl = user.opened[0]!;
    expect(authorizationUrl.origin).toBe(front.issuer);
    expect(authorizationUrl.searchParams.get("code_challenge_method")).toBe("S256");
    expect(authorizationUrl.searchParams.get("code_challenge")).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(authorizationUrl.searchParams.get("state")?.length).toBeGreaterThanOrEqual(32);
    expect(authorizationUrl.searchParams.get("redirect_uri")).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/callback$/);

    // Persisted with mode 0600; the single-use verifier and state are gone.
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const onDisk = JSON.parse(readFileSync(file, "utf8")).everything;
    expect(onDisk.tokens.access_token).toBe(first.tokens.access_token);
    expect(onDisk.codeVerifier).toBeUndefined();
    expect(onDisk.state).toBeUndefined();

    // A new process (new store object on the same file) reuses the token: no second authorization.
    const again = await runMcpOAuth({
      serverUrl: front.url,
      store: new FsOAuthStore(file),
      key: "everything",
      port,
      openBrowser: user.open,
      log: () => {},
    });
    expect(again.reused).toBe(true);
    expect(again.tokens.access_token).toBe(first.tokens.access_token);
    expect(user.opened).toHaveLength(1);

    // The agent reconnects with the persisted token and calls a bridged tool.
    const store = new FsOAuthStore(file);
    const adapter = new StoreAdapter(store);
    await adapter.activate("everything");
    const entries: McpCatalogueEntry[] = [
      { id: "everything", name: "Everything", description: "test server", url: front.url },
    ];
    const messages = new MemoryStore("oauth");
    const glove = new Glove({
      store: messages,
      model: new ScriptedModel([
        { toolCalls: [{ name: "everything__echo", input: { message: "with oauth" } }] },
        { text: "ok" },
        { toolCalls: [{ name: "everything__echo", input: { message: "after expiry" } }] },
        { text: "token expired" },
      ]),
      displayManager: new Displaymanager(),
      systemPrompt: "p",
      serverMode: true,
      compaction_config: { compaction_instructions: "s" },
    }).build();
    const mount = await mountMcp(glove, { adapter, entries });
    try {
      expect(mount.reloaded).toEqual(["everything"]);
      await glove.processRequest("echo");
      front.provider.expireAll();
      await glove.processRequest("echo again");
      const results = ((await messages.getMessages()) as Message[])
        .flatMap((m) => m.tool_results ?? [])
        .map((r) => r.result);
      expect(results[0]).toMatchObject({ status: "success", data: "Echo: with oauth" });
      expect(results[1]).toEqual({ status: "error", message: "auth_expired", data: null });
    } finally {
      await mount.unmount();
    }

    // Expired: the next run refreshes with the stored refresh token, without the browser.
    const refreshed = await runMcpOAuth({
      serverUrl: front.url,
      store,
      key: "everything",
      port,
      openBrowser: user.open,
      log: () => {},
    });
    expect(refreshed.reused).toBe(false);
    expect(refreshed.tokens.access_token).not.toBe(first.tokens.access_token);
    expect(user.opened).toHaveLength(1);
    const reconnected = await connectMcp(entries[0]!, { getAccessToken: (id) => adapter.getAccessToken(id) });
    expect(reconnected.tools.length).toBe(first.verified?.tools);
    await reconnected.close();
  });

  it("falls back to the well-known resource metadata and prints the URL when headless", async () => {
    const front = await fronts.start({ discovery: "well-known" });
    const user = browser();
    const lines: string[] = [];
    const result = await runMcpOAuth({
      serverUrl: front.url,
      store: new MemoryOAuthStore(),
      key: "everything",
      port: 0,
      openBrowser: false,
      verify: { type: "callTool", name: "echo", arguments: { message: "verified" } },
      log: (line) => {
        lines.push(line);
        const url = /https?:\/\/\S+/.exec(line)?.[0];
        if (url) void user.open(new URL(url));
      },
    });
    expect(lines.join("\n")).toContain(user.opened[0]!.href);
    expect(front.resourceRequests).toContain("/.well-known/oauth-protected-resource/mcp");
    expect(result.verified?.result).toBe("Echo: verified");
  });

  it("uses pre-registered credentials without Dynamic Client Registration and keeps the secret off disk", async () => {
    const front = await fronts.start({ discovery: "www-authenticate", dynamicRegistration: false });
    const port = await freePort();
    const client = front.provider.preRegister(`http://127.0.0.1:${port}/callback`);
    const file = tempFile();
    const result = await runMcpOAuth({
      serverUrl: front.url,
      store: new FsOAuthStore(file),
      key: "gmail",
      port,
      preRegisteredClient: client,
      scope: "mcp:tools",
      openBrowser: browser().open,
      log: () => {},
    });
    expect(front.provider.registrations).toBe(0);
    expect(front.provider.authorizeRequests[0]).toMatchObject({ scopes: ["mcp:tools"] });
    expect(result.verified?.tools).toBeGreaterThan(0);
    expect(readFileSync(file, "utf8")).not.toContain(client.client_secret);
  });

  it("ignores a callback whose state does not match (the login waits for the real one) and stores no token", async () => {
    const front = await fronts.start({ discovery: "www-authenticate" });
    const store = new MemoryOAuthStore();
    const forged = browser((callback) => callback.searchParams.set("state", "forged"));
    const error = await runMcpOAuth({
      serverUrl: front.url,
      store,
      key: "k",
      port: 0,
      openBrowser: forged.open,
      log: () => {},
      timeoutMs: 1500,
    }).catch((e: unknown) => e);
    expect(McpOAuthError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ step: "callback", message: expect.stringContaining("No OAuth callback arrived") });
    expect((await store.get("k")).tokens).toBeUndefined();
  });

  it("splits into begin/complete for route handlers; PKCE is enforced by the token endpoint", async () => {
    const front = await fronts.start({ discovery: "www-authenticate" });
    const store = new MemoryOAuthStore();
    const flow: McpOAuthFlowOptions = {
      serverUrl: front.url,
      store,
      key: "k",
      redirectUrl: "http://127.0.0.1:9/oauth/k/callback",
    };
    const authorizeAndReadCallback = async () => {
      const begun = await beginMcpOAuth(flow);
      if (begun.status !== "redirect") throw new Error("expected a redirect");
      const page = await fetch(begun.authorizationUrl, { redirect: "manual" });
      const callback = new URL(page.headers.get("location")!);
      return { code: callback.searchParams.get("code"), state: callback.searchParams.get("state") };
    };

    const tampered = await authorizeAndReadCallback();
    await store.set("k", { ...(await store.get("k")), codeVerifier: "x".repeat(64) });
    const pkceError = await completeMcpOAuth(flow, tampered).catch((e: unknown) => e);
    expect(pkceError).toMatchObject({ name: "McpOAuthError", step: "token" });

    const denied = await completeMcpOAuth(flow, { error: "access_denied", error_description: "user said no" }).catch(
      (e: unknown) => e,
    );
    expect(denied).toMatchObject({
      step: "callback",
      message: expect.stringContaining("access_denied (user said no)"),
    });

    const tokens = await completeMcpOAuth(flow, await authorizeAndReadCallback());
    expect(front.provider.tokens.has(tokens.access_token)).toBe(true);
    expect(front.provider.registrations).toBe(1); // the stored registration served both attempts
  });

  it("says so when the server does not ask for a token", async () => {
    const flow: McpOAuthFlowOptions = {
      serverUrl: fronts.upstreamUrl,
      store: new MemoryOAuthStore(),
      key: "open",
      redirectUrl: "http://127.0.0.1:9/cb",
    };
    const error = await beginMcpOAuth(flow).catch((e: unknown) => e);
    expect(McpOAuthError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ step: "authorization", message: expect.stringContaining("may not use OAuth") });
  });
});
