import { afterEach, describe, expect, it } from "vitest";
import { ConfigurationError, Glove, Displaymanager } from "glove-core";
import { ScriptedModel } from "glove-core/testing";
import { createGloveServer, memoryStorage } from "glove-server";
import { authenticate, startServer, type TestServer } from "./support/harness.js";

let t: TestServer | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});
const start = async (extra: Parameters<typeof startServer>[0] = {}) =>
  (t = await startServer({ store: memoryStorage(), ...extra }));

describe("createGloveServer configuration", () => {
  const agents = {
    a: () =>
      new Glove({
        model: new ScriptedModel(),
        displayManager: new Displaymanager(),
        systemPrompt: "",
        compaction_config: { compaction_instructions: "" },
      }),
  };
  it("refuses to start without authenticate, with a message that says why", () => {
    expect(() => createGloveServer({ agents } as never)).toThrow(ConfigurationError);
    expect(() => createGloveServer({ agents } as never)).toThrow(/authenticate/);
  });
  it("names the wrong option", () => {
    expect(() => createGloveServer({ agents: {}, authenticate })).toThrow(/agents/);
    expect(() => createGloveServer({ agents: { a: "nope" } as never, authenticate })).toThrow(/agents\.a/);
    expect(() => createGloveServer({ agents, authenticate, basePath: "api" })).toThrow(/basePath/);
    expect(() => createGloveServer({ agents, authenticate, limits: { bodyBytes: -1 } })).toThrow(/limits\.bodyBytes/);
    expect(() => createGloveServer({ agents, authenticate, store: 42 as never })).toThrow(/store/);
  });
});

describe("routes", () => {
  it("creates, lists newest first, reads and deletes conversations", async () => {
    const s = await start();
    const created = await s.api("/conversations", { body: { agent: "assistant" } });
    expect(created.status).toBe(201);
    expect(created.body.id).toMatch(/^[0-9a-f-]{36}$/);
    const second = await s.conversation();
    const list = await s.api("/conversations");
    expect(list.body.conversations.map((c: { id: string }) => c.id)).toEqual(
      expect.arrayContaining([created.body.id, second]),
    );
    const one = await s.api(`/conversations/${created.body.id}`);
    expect(one.body).toMatchObject({ id: created.body.id, agent: "assistant", messages: [], slots: [], busy: false });
    expect((await s.api(`/conversations/${created.body.id}`, { method: "DELETE" })).status).toBe(204);
    expect((await s.api(`/conversations/${created.body.id}`)).status).toBe(404);
    expect((await s.api("/conversations")).body.conversations.map((c: { id: string }) => c.id)).toEqual([second]);
  });

  it("answers 401 without credentials on every route", async () => {
    const s = await start();
    const id = await s.conversation();
    for (const [path, method] of [
      ["/conversations", "GET"],
      ["/conversations", "POST"],
      [`/conversations/${id}`, "GET"],
      [`/conversations/${id}/events`, "GET"],
      [`/conversations/${id}/messages`, "POST"],
      [`/conversations/${id}/abort`, "POST"],
      [`/conversations/${id}/slots/x`, "POST"],
      [`/conversations/${id}`, "DELETE"],
    ] as const) {
      const response = await s.api(path, { method, user: "" });
      expect(response.status, `${method} ${path}`).toBe(401);
      expect(response.body.error.code).toBe("GLOVE_UNAUTHENTICATED");
    }
  });

  it("hides other principals' conversations behind 404 (no existence leak)", async () => {
    const s = await start();
    const id = await s.conversation("alice");
    const missing = await s.api(`/conversations/00000000-0000-4000-8000-000000000000`, { user: "bob" });
    for (const [path, method] of [
      [`/conversations/${id}`, "GET"],
      [`/conversations/${id}/events`, "GET"],
      [`/conversations/${id}/messages`, "POST"],
      [`/conversations/${id}`, "DELETE"],
    ] as const) {
      const response = await s.api(path, { method, user: "bob", body: method === "POST" ? { text: "hi" } : undefined });
      expect(response.status, `${method} ${path}`).toBe(404);
      expect(response.body).toEqual({ error: { ...missing.body.error, message: expect.any(String) } });
    }
    expect((await s.api("/conversations", { user: "bob" })).body.conversations).toEqual([]);
    expect((await s.api(`/conversations/${id}`)).status).toBe(200);
  });

  it("answers malformed and invalid bodies with 400 and a message saying what is wrong", async () => {
    const s = await start();
    const id = await s.conversation();
    const bad = await s.api(`/conversations/${id}/messages`, {
      raw: "{not json",
      headers: { "content-type": "application/json" },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toMatch(/not valid JSON/);
    const array = await s.api(`/conversations/${id}/messages`, { body: [1, 2] });
    expect(array.body.error.message).toMatch(/JSON object/);
    const noText = await s.api(`/conversations/${id}/messages`, { body: { txt: "hi" } });
    expect(noText.status).toBe(400);
    expect(noText.body.error.issues).toEqual([{ path: "text", message: expect.any(String) }]);
    const agent = await s.api("/conversations", { body: { agent: "nobody" } });
    expect(agent.status).toBe(400);
    expect(agent.body.error.message).toMatch(/assistant/);
    const both = await s.api(`/conversations/${id}/slots/x`, { body: { resolve: 1, reject: "no" } });
    expect(both.status).toBe(400);
    const wrongType = await s.api(`/conversations/${id}/messages`, {
      raw: "text=hi",
      headers: { "content-type": "application/x-www-form-urlencoded" },
    });
    expect(wrongType.status).toBe(415);
    const after = await s.api(`/conversations/${id}/events?after=abc`);
    expect(after.status).toBe(400);
  });

  it("enforces size limits with 413", async () => {
    const s = await start({ limits: { bodyBytes: 2000, textChars: 100 } });
    const id = await s.conversation();
    const long = await s.api(`/conversations/${id}/messages`, { body: { text: "x".repeat(101) } });
    expect(long.status).toBe(413);
    const big = await s.api(`/conversations/${id}/messages`, { body: { text: "hi", pad: "y".repeat(5000) } });
    expect(big.status).toBe(413);
    expect(big.body.error.message).toMatch(/2000 bytes/);
  });

  it("answers unknown routes with 404, wrong methods with 405, and never a stack trace", async () => {
    const s = await start();
    const id = await s.conversation();
    expect((await s.api("/nope")).status).toBe(404);
    expect((await s.api(`/conversations/${id}/whatever`)).status).toBe(404);
    expect((await s.api(`/conversations/not-an-id`)).status).toBe(404);
    const put = await s.api(`/conversations/${id}`, { method: "PUT", body: {} });
    expect(put.status).toBe(405);
    expect(JSON.stringify(put.body)).not.toMatch(/at .*\.ts:\d+/);
  });

  it("refuses cross-site state changes from browsers unless the origin is allowed", async () => {
    const s = await start({ allowedOrigins: ["http://app.example"] });
    const forged = await s.api("/conversations", { body: {}, headers: { origin: "http://evil.example" } });
    expect(forged.status).toBe(403);
    expect(forged.body.error.code).toBe("GLOVE_FORBIDDEN_ORIGIN");
    const fetchMeta = await s.api("/conversations", { body: {}, headers: { "sec-fetch-site": "cross-site" } });
    expect(fetchMeta.status).toBe(403);
    const allowed = await s.api("/conversations", { body: {}, headers: { origin: "http://app.example" } });
    expect(allowed.status).toBe(201);
    expect(allowed.headers.get("access-control-allow-origin")).toBe("http://app.example");
    const same = await s.api("/conversations", { body: {}, headers: { origin: new URL(s.url).origin } });
    expect(same.status).toBe(201);
    const preflight = await fetch(`${s.url}/conversations`, {
      method: "OPTIONS",
      headers: { origin: "http://app.example", "access-control-request-method": "POST" },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get("access-control-allow-methods")).toMatch(/POST/);
  });

  it("mounts under basePath and works through fetch() without a socket", async () => {
    const server = createGloveServer({
      agents: {
        a: () =>
          new Glove({
            model: new ScriptedModel([{ text: "hey" }]),
            displayManager: new Displaymanager(),
            systemPrompt: "",
            compaction_config: { compaction_instructions: "" },
          }),
      },
      authenticate,
      store: memoryStorage(),
      basePath: "/api/glove",
      // A mounted server answers only the host names it is told (and loopback names, IP addresses).
      allowedHosts: ["x"],
    });
    try {
      const created = await server.fetch(
        new Request("http://x/api/glove/conversations", { method: "POST", headers: { authorization: "Bearer u" } }),
      );
      expect(created.status).toBe(201);
      const outside = await server.fetch(
        new Request("http://x/conversations", { headers: { authorization: "Bearer u" } }),
      );
      expect(outside.status).toBe(404);
    } finally {
      await server.close();
    }
  });

  it("reports abort with no running turn plainly", async () => {
    const s = await start();
    const id = await s.conversation();
    const response = await s.api(`/conversations/${id}/abort`, { body: {} });
    expect(response.status).toBe(200);
    expect(response.body.aborted).toBe(false);
  });
});
