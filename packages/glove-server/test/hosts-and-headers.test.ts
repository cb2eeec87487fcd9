/**
 * The Host check (DNS rebinding) runs before routing and authentication; the hardening headers
 * are on every response of glove-server's handler, and only on those.
 */
import { afterEach, describe, expect, it } from "vitest";
import { ConfigurationError, Displaymanager, Glove } from "glove-core";
import { ScriptedModel } from "glove-core/testing";
import { createGloveServer, listenNode, memoryStorage, type GloveServerOptions } from "glove-server";
import { authenticate, startServer, type TestServer } from "./support/harness.js";
import { exchange, request } from "./support/raw-http.js";

const HARDENING = {
  "x-content-type-options": "nosniff",
  "referrer-policy": "no-referrer",
  "x-frame-options": "DENY",
  "content-security-policy": "default-src 'none'; frame-ancestors 'none'",
  "cross-origin-resource-policy": "same-origin",
};

let t: TestServer | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});
const start = async (extra: Parameters<typeof startServer>[0] = {}) =>
  (t = await startServer({ store: memoryStorage(), ...extra }));
const agents = {
  a: () =>
    new Glove({
      model: new ScriptedModel(),
      displayManager: new Displaymanager(),
      systemPrompt: "",
      compaction_config: { compaction_instructions: "" },
    }),
};

/** The status of GET /conversations sent over a socket with this Host header (and no credentials unless asked). */
async function statusFor(
  s: TestServer,
  host: string,
  headers: Record<string, string> = {},
  method = "GET",
): Promise<number | undefined> {
  const [response] = await exchange(s.listening.port, request(method, "/conversations", { host, ...headers }));
  return response?.status;
}

describe("Host check", () => {
  it("refuses a rebound name with 421 before authentication, also for a same-origin-looking post", async () => {
    const s = await start();
    // What a page on attacker.example sees after its name is pointed at 127.0.0.1.
    const rebound = {
      origin: "http://attacker.example",
      authorization: "Bearer alice",
      "content-type": "application/json",
    };
    const [post] = await exchange(
      s.listening.port,
      request("POST", "/conversations", { host: "attacker.example", ...rebound }, "{}"),
    );
    expect(post?.status).toBe(421);
    expect(JSON.parse(post!.body).error.code).toBe("GLOVE_HOST_NOT_ALLOWED");
    expect(await statusFor(s, "attacker.example")).toBe(421); // not 401: nothing else runs
    expect(await statusFor(s, "attacker.example:8080", { origin: "http://attacker.example:8080" }, "OPTIONS")).toBe(
      421,
    );
    expect((await s.api("/conversations")).body.conversations).toEqual([]);
  });

  it("answers loopback names and IP addresses on any port by default", async () => {
    const s = await start();
    const user = { authorization: "Bearer alice" };
    for (const host of [
      "127.0.0.1",
      "127.0.0.1:1",
      "localhost",
      "LOCALHOST:8787",
      "localhost.",
      "[::1]",
      "[::1]:9",
      "10.1.2.3",
      "0x7f.1",
    ]) {
      expect(await statusFor(s, host, user), host).toBe(200);
    }
    for (const host of ["127.0.0.1.nip.io", "localhost.attacker.example", "sub.localhost", "example.com"]) {
      expect(await statusFor(s, host, user), host).toBe(421);
    }
  });

  it("answers the names in allowedHosts and the hosts of allowedOrigins", async () => {
    const s = await start({
      allowedHosts: ["App.Example.com", "*.corp.example"],
      allowedOrigins: ["https://ui.example.org"],
    });
    const user = { authorization: "Bearer alice" };
    for (const host of [
      "app.example.com",
      "app.example.com:443",
      "a.corp.example",
      "b.a.corp.example",
      "ui.example.org",
    ]) {
      expect(await statusFor(s, host, user), host).toBe(200);
    }
    for (const host of ["example.com", "corp.example", "evilcorp.example", "app.example.com.evil.example"]) {
      expect(await statusFor(s, host, user), host).toBe(421);
    }
  });

  it('answers any name with allowedHosts: ["*"]', async () => {
    const s = await start({ allowedHosts: ["*"] });
    expect(await statusFor(s, "anything.example", { authorization: "Bearer alice" })).toBe(200);
  });

  it("checks the host of a mounted fetch() too", async () => {
    const make = (extra: Partial<GloveServerOptions> = {}) =>
      createGloveServer({ agents, authenticate, store: memoryStorage(), ...extra });
    const plain = make();
    const named = make({ allowedHosts: ["app.example.com"] });
    try {
      const headers = { authorization: "Bearer u" };
      expect((await plain.fetch(new Request("http://app.example.com/conversations", { headers }))).status).toBe(421);
      expect((await plain.fetch(new Request("http://localhost:3000/conversations", { headers }))).status).toBe(200);
      expect((await named.fetch(new Request("https://app.example.com/conversations", { headers }))).status).toBe(200);
    } finally {
      await Promise.all([plain.close(), named.close()]);
    }
  });

  it("refuses allowedHosts entries that are not host names", () => {
    for (const entry of ["example.com:8080", "http://example.com", "example.com/path", "", "a b"]) {
      expect(
        () => createGloveServer({ agents, authenticate, store: memoryStorage(), allowedHosts: [entry] }),
        entry,
      ).toThrow(ConfigurationError);
    }
    expect(() =>
      createGloveServer({ agents, authenticate, store: memoryStorage(), allowedHosts: "x" as never }),
    ).toThrow(/allowedHosts/);
  });
});

describe("hardening headers", () => {
  function expectHardened(headers: Headers | Record<string, string>, what: string): void {
    const get = (name: string) => (headers instanceof Headers ? headers.get(name) : headers[name]);
    for (const [name, value] of Object.entries(HARDENING)) expect(get(name), `${what}: ${name}`).toBe(value);
  }

  it("are on every response: success, errors, preflights, 421, event streams, and the listener's own errors", async () => {
    const s = await start({ allowedOrigins: ["http://app.example"] });
    const id = await s.conversation();
    expectHardened((await s.api("/conversations", { body: {} })).headers, "201");
    expectHardened((await s.api("/nope")).headers, "404");
    expectHardened((await s.api("/conversations", { user: "" })).headers, "401");
    expectHardened((await s.api(`/conversations/${id}`, { method: "PUT", body: {} })).headers, "405");
    expectHardened(
      (await s.api("/conversations", { body: {}, headers: { origin: "http://evil.example" } })).headers,
      "403",
    );
    for (const origin of ["http://app.example", "http://evil.example"]) {
      const preflight = await fetch(`${s.url}/conversations`, {
        method: "OPTIONS",
        headers: { origin, "access-control-request-method": "POST" },
      });
      expectHardened(preflight.headers, `preflight from ${origin}`);
    }
    const events = await fetch(`${s.url}/conversations/${id}/events`, { headers: { authorization: "Bearer alice" } });
    expect(events.headers.get("content-type")).toMatch(/^text\/event-stream/);
    expectHardened(events.headers, "event stream");
    await events.body?.cancel();
    const [rebound] = await exchange(s.listening.port, request("GET", "/conversations", { host: "attacker.example" }));
    expectHardened(rebound!.headers, "421");
    const [malformed] = await exchange(s.listening.port, request("GET", "/conversations", { host: "a b" }));
    expectHardened(malformed!.headers, "400 from the listener");
    const [unparsable] = await exchange(s.listening.port, "GET / HTTP/1.1\r\nno colon here\r\n\r\n");
    expectHardened(unparsable!.headers, "400 from the parser");
    const mounted = createGloveServer({ agents, authenticate, store: memoryStorage() });
    expectHardened((await mounted.fetch(new Request("http://localhost/conversations"))).headers, "mounted fetch");
    await mounted.close();
  });

  it("stay off a page an app serves beside the API through its own handler (as examples/web-chat does)", async () => {
    const server = createGloveServer({ agents, authenticate, store: memoryStorage(), basePath: "/api" });
    const page = "<!doctype html><script src=/app.js></script>";
    const listening = await listenNode(async (request) => {
      if (new URL(request.url).pathname.startsWith("/api/")) return server.fetch(request);
      return new Response(page, {
        headers: { "content-type": "text/html", "content-security-policy": "script-src 'self'" },
      });
    });
    try {
      const html = await fetch(`${listening.url}/`);
      expect(html.headers.get("content-security-policy")).toBe("script-src 'self'");
      expect(html.headers.get("x-frame-options")).toBeNull();
      expect(await html.text()).toBe(page);
      expectHardened(
        (await fetch(`${listening.url}/api/conversations`, { headers: { authorization: "Bearer u" } })).headers,
        "API beside a page",
      );
    } finally {
      await server.close();
      await listening.close();
    }
  });
});
