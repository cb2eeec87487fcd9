import { describe, expect, it } from "vitest";
import {
  applicationTypeFor,
  beginMcpOAuth,
  buildClientMetadata,
  completeMcpOAuth,
  McpOAuthError,
  MemoryOAuthStore,
  runMcpOAuth,
  type McpOAuthFlowOptions,
} from "glove-mcp/oauth";
import type { ProtectedMcp } from "./support/oauth-server.js";
import { protectedFronts } from "./support/protected-fronts.js";

const fronts = protectedFronts();
const front = (advertiseIss: boolean): Promise<ProtectedMcp> =>
  fronts.start({ discovery: "www-authenticate", advertiseIss });

/** begin → the authorization page's redirect → the callback query, as a browser would carry it. */
async function authorize(flow: McpOAuthFlowOptions) {
  const begun = await beginMcpOAuth(flow);
  if (begun.status !== "redirect") throw new Error("expected a redirect");
  const page = await fetch(begun.authorizationUrl, { redirect: "manual" });
  return Object.fromEntries(new URL(page.headers.get("location")!).searchParams);
}

const flowFor = (f: ProtectedMcp): McpOAuthFlowOptions => ({
  serverUrl: f.url,
  store: new MemoryOAuthStore(),
  key: "k",
  redirectUrl: "http://127.0.0.1:9/oauth/k/callback",
});

describe("RFC 9207 issuer on the callback", () => {
  it("accepts the advertised issuer and refuses a callback that leaves it out", async () => {
    const f = await front(true);
    const flow = flowFor(f);
    f.provider.callbackIss = { mode: "value", value: `${f.issuer}/` };
    const tokens = await completeMcpOAuth(flow, await authorize(flow));
    expect(f.provider.tokens.has(tokens.access_token)).toBe(true);

    f.provider.callbackIss = { mode: "none" };
    const before = f.provider.tokens.size;
    const fresh = flowFor(f);
    const missing = await completeMcpOAuth(fresh, await authorize(fresh)).catch((e: unknown) => e);
    expect(McpOAuthError.isInstance(missing)).toBe(true);
    expect(missing).toMatchObject({ step: "callback", message: expect.stringMatching(/iss/) });
    expect(f.provider.tokens.size).toBe(before); // the code was never exchanged
  });

  it("refuses a different issuer even when the server does not advertise the parameter", async () => {
    const f = await front(false);
    const flow = flowFor(f);
    f.provider.callbackIss = { mode: "value", value: "https://evil.example/" };
    const error = await completeMcpOAuth(flow, await authorize(flow)).catch((e: unknown) => e);
    expect(error).toMatchObject({
      name: "McpOAuthError",
      step: "callback",
      message: expect.stringContaining("https://evil.example/"),
    });
    expect((await flow.store.get("k")).tokens).toBeUndefined();

    f.provider.callbackIss = { mode: "none" };
    const tokens = await completeMcpOAuth(flow, await authorize(flow));
    expect(tokens.access_token).toBeTruthy();
  });

  it("runMcpOAuth's loopback listener hands iss through", async () => {
    const f = await front(true);
    f.provider.callbackIss = { mode: "value", value: `${f.issuer}/` };
    const result = await runMcpOAuth({
      serverUrl: f.url,
      store: new MemoryOAuthStore(),
      key: "k",
      port: 0,
      log: () => {},
      openBrowser: async (url) => {
        const page = await fetch(url, { redirect: "manual" });
        await (await fetch(page.headers.get("location")!)).text();
      },
    });
    expect(result.verified?.tools).toBeGreaterThan(0);
  });
});

describe("application_type in client registration", () => {
  it("registers a loopback client as native", async () => {
    const f = await front(false);
    await authorize(flowFor(f));
    expect(f.registrationBodies[0]).toMatchObject({
      application_type: "native",
      redirect_uris: ["http://127.0.0.1:9/oauth/k/callback"],
    });
  });

  it("is web for a hosted callback and native for loopback or private-use schemes", () => {
    expect(buildClientMetadata({ redirectUrl: "https://app.example.com/oauth/cb" }).application_type).toBe("web");
    expect(buildClientMetadata({ port: 5000 }).application_type).toBe("native");
    expect(applicationTypeFor("http://localhost:3000/cb")).toBe("native");
    expect(applicationTypeFor("http://[::1]:3000/cb")).toBe("native");
    expect(applicationTypeFor("com.example.app:/oauth")).toBe("native");
  });
});
