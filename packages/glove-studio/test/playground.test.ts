/**
 * The playground, mounted: an allowed user sends, regenerates, edits, switches branches and forks
 * through the server's own turn path; every action on another principal's conversation is audited;
 * a user without `allow` changes nothing; hostile input is refused with a 4xx, never a 5xx.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { Message } from "glove-core";
import { ScriptedModel } from "glove-core/testing";
import { memoryStorage, sqliteStorage } from "glove-server";
import { createStudio, startStudio } from "glove-studio";
import { PROMPT_WAIT_MS } from "../../../test-support/timeouts.js";
import { startApp, type SeededApp } from "./support/seeded-app.js";
import { Gate, HOSTILE } from "./support/studio-agent.js";

let app: SeededApp | undefined;
afterEach(async () => {
  app?.gate.current.open();
  await app?.close();
  app = undefined;
});

const variantModel = () => new ScriptedModel([], { fallback: () => ({ text: "The variant answers." }) });
const start = async () =>
  (app = await startApp(memoryStorage(), {
    extensions: [
      createStudio({
        allow: (principal) => principal.id === "admin",
        variants: {
          "assistant-cheap": { agent: "assistant", override: { model: variantModel, systemPrompt: "Be brief." } },
        },
      }),
    ],
  }));

async function studio(path: string, user: string | null, init: { method?: string; body?: unknown; raw?: string } = {}) {
  const headers: Record<string, string> = { "content-type": "application/json" };
  if (user) headers.authorization = `Bearer ${user}`;
  const body = init.raw ?? (init.body === undefined ? undefined : JSON.stringify(init.body));
  const response = await fetch(`${app!.url}/studio/api/${path}`, {
    method: init.method ?? (body === undefined ? "GET" : "POST"),
    headers,
    body,
  });
  const text = await response.text();
  return {
    status: response.status,
    type: response.headers.get("content-type") ?? "",
    body: (text.startsWith("{") ? JSON.parse(text) : {}) as Record<string, unknown>,
  };
}

const messagesOf = async (id: string, user: string) =>
  ((await app!.waitIdle(id, user)).messages ?? []) as Array<Message & { id: string }>;

async function until(check: () => Promise<boolean>): Promise<void> {
  const end = Date.now() + PROMPT_WAIT_MS;
  while (!(await check())) {
    if (Date.now() > end) throw new Error("condition not met in time");
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe("the mounted studio's playground", () => {
  it("acts on another user's conversation through the server's turns, and audits each action", async () => {
    await start();
    const id = await app!.converse("alice", "assistant", ["hello there"]);

    const sent = await studio(`conversations/${id}/messages`, "admin", { body: { text: "and again" } });
    expect(sent.status).toBe(202);
    expect(sent.body.turnId).toEqual(expect.any(String));
    await until(async () => (await messagesOf(id, "alice")).length === 4);
    expect((await messagesOf(id, "alice")).map((m) => m.text)).toEqual([
      "hello there",
      "You said: hello there",
      "and again",
      "You said: and again",
    ]);

    expect((await studio(`conversations/${id}/regenerate`, "admin", { body: {} })).status).toBe(202);
    await until(async () => ((await studio(`conversations/${id}/branches`, "admin")).body.points as []).length > 0);

    const firstUser = (await messagesOf(id, "alice"))[0]!;
    const edited = await studio(`conversations/${id}/messages/${firstUser.id}/edit`, "admin", {
      body: { text: "edited hello" },
    });
    expect(edited.status).toBe(202);
    await until(async () => (await messagesOf(id, "alice"))[0]?.text === "edited hello");
    expect((await messagesOf(id, "alice")).map((m) => m.text)).toEqual(["edited hello", "You said: edited hello"]);

    // Back to the branch of the original first message.
    const switched = await studio(`conversations/${id}/branches/${firstUser.id}`, "admin", { body: {} });
    expect(switched.status).toBe(200);
    expect((await messagesOf(id, "alice"))[0]?.text).toBe("hello there");

    const audit = await studio(`audit?conversation=${id}`, "admin");
    expect(audit.status).toBe(200);
    const entries = audit.body.entries as Array<Record<string, unknown>>;
    expect(entries.map((e) => e.action)).toEqual(["switch_branch", "edit", "regenerate", "message"]);
    for (const entry of entries) {
      expect(entry).toMatchObject({ actor: "admin", owner: "alice", conversationId: id });
      expect(Date.parse(entry.at as string)).toBeGreaterThan(Date.now() - 60_000);
    }
    expect(entries[1]!.target).toBe(firstUser.id);
  });

  it("forks into a conversation of the acting user, on the conversation's agent or a variant", async () => {
    await start();
    const id = await app!.converse("alice", "assistant", ["weather Lisbon", "hello"]);
    const source = await messagesOf(id, "alice");

    // At the tool call: its results come along, so the fork is a history a model can continue.
    const fork = await studio(`conversations/${id}/fork`, "admin", { body: { at: 1 } });
    expect(fork.status).toBe(201);
    expect(fork.body).toMatchObject({ agent: "assistant", owner: "admin", messages: 3 });
    const forkId = fork.body.id as string;
    expect((await messagesOf(forkId, "admin")).map((m) => m.text)).toEqual(source.slice(0, 3).map((m) => m.text));
    // The fork is admin's: alice cannot see it, admin's own API lists it.
    expect((await app!.api(`/conversations/${forkId}`, { user: "alice" })).status).toBe(404);
    const listed = (await app!.api("/conversations", { user: "admin" })).body.conversations as Array<{
      id: string;
      title: string;
    }>;
    expect(listed.find((c) => c.id === forkId)?.title).toBe("weather Lisbon");

    const variant = await studio(`conversations/${id}/fork`, "admin", { body: { at: 3, variant: "assistant-cheap" } });
    expect(variant.status).toBe(201);
    expect(variant.body.agent).toBe("assistant-cheap");
    const variantId = variant.body.id as string;
    expect(
      (await app!.api(`/conversations/${variantId}/messages`, { user: "admin", body: { text: "go" } })).status,
    ).toBe(202);
    await until(async () => (await messagesOf(variantId, "admin")).length === 6);
    expect((await messagesOf(variantId, "admin")).at(-1)?.text).toBe("The variant answers.");
    // The source is untouched.
    expect((await messagesOf(id, "alice")).length).toBe(source.length);

    const entries = (await studio(`audit?conversation=${id}`, "admin")).body.entries as Array<Record<string, unknown>>;
    expect(entries.map((e) => [e.action, e.target])).toEqual([
      ["fork", variantId],
      ["fork", forkId],
    ]);
    // Acting on one's own conversation (admin's fork) is not audited.
    await studio(`conversations/${forkId}/messages`, "admin", { body: { text: "mine" } });
    await until(async () => (await messagesOf(forkId, "admin")).length === 5);
    expect((await studio(`audit?conversation=${forkId}`, "admin")).body.entries).toEqual([]);
  });

  it("refuses every action to a user without allow and to no one signed in, changing nothing", async () => {
    await start();
    const id = await app!.converse("alice", "assistant", ["hello there"]);
    const before = await messagesOf(id, "alice");
    const first = before[0]!.id;
    const attempts: Array<[string, unknown]> = [
      [`conversations/${id}/messages`, { text: "sneaky" }],
      [`conversations/${id}/regenerate`, {}],
      [`conversations/${id}/messages/${first}/edit`, { text: "sneaky" }],
      [`conversations/${id}/branches/${first}`, {}],
      [`conversations/${id}/fork`, { at: 0 }],
    ];
    for (const user of ["alice", "mallory"]) {
      for (const [path, body] of attempts) expect((await studio(path, user, { body })).status, path).toBe(403);
      expect((await studio("audit", user)).status).toBe(403);
    }
    for (const [path, body] of attempts) expect((await studio(path, null, { body })).status, path).toBe(401);
    expect(await messagesOf(id, "alice")).toEqual(before);
    const listed = (await app!.api("/conversations", { user: "alice" })).body.conversations as unknown[];
    expect(listed).toHaveLength(1);
    expect((await app!.api("/conversations", { user: "mallory" })).body.conversations).toEqual([]);
    expect((await studio("audit", "admin")).body.entries).toEqual([]);
  });

  it("answers hostile input with a 4xx and keeps it inert", async () => {
    await start();
    const id = await app!.converse("alice", "assistant", ["hello there"]);
    const bad: Array<[string, { method?: string; body?: unknown; raw?: string }]> = [
      [`conversations/${id}/messages`, { body: { text: "" } }],
      [`conversations/${id}/messages`, { body: { text: 42 } }],
      [`conversations/${id}/messages`, { raw: "{not json" }],
      [`conversations/${id}/messages`, { raw: "[1,2]" }],
      [`conversations/${id}/messages`, { body: { text: "x".repeat(300_000) } }],
      [`conversations/${id}/messages/..%2F..%2Fx/edit`, { body: { text: "x" } }],
      [`conversations/${id}/messages/nope/edit`, { body: { text: "x" } }],
      [`conversations/${id}/branches/nope`, { body: {} }],
      [`conversations/${id}/fork`, { body: { at: -1 } }],
      [`conversations/${id}/fork`, { body: { at: 1.5 } }],
      [`conversations/${id}/fork`, { body: { at: 99 } }],
      [`conversations/${id}/fork`, { body: { at: 0, variant: "researcher" } }],
      [`conversations/${id}/fork`, { body: { at: 0, variant: { toString: 1 } } }],
      [`conversations/00000000-0000-0000-0000-000000000000/messages`, { body: { text: "x" } }],
      [`conversations/${encodeURIComponent(HOSTILE)}/fork`, { body: { at: 0 } }],
      [`conversations/${id}/regenerate`, { method: "GET" }],
      [`conversations/${id}/fork`, { method: "PUT", body: { at: 0 } }],
      [`audit?limit=abc`, {}],
    ];
    for (const [path, init] of bad) {
      const answer = await studio(path, "admin", init);
      expect(answer.status, path).toBeGreaterThanOrEqual(400);
      expect(answer.status, path).toBeLessThan(500);
      // Served as JSON (never HTML), whatever it quotes back.
      expect(answer.type, path).toMatch(/^application\/json/);
      expect(answer.body.error, path).toMatchObject({ code: expect.any(String) });
    }
    // A hostile message is stored as text, like any other.
    expect((await studio(`conversations/${id}/messages`, "admin", { body: { text: HOSTILE } })).status).toBe(202);
    await until(async () => (await messagesOf(id, "alice")).length === 4);
    expect((await messagesOf(id, "alice"))[2]!.text).toBe(HOSTILE);
  });

  it("audits answers and aborts on another user's conversation too", async () => {
    await start();
    app!.gate.current = new Gate();
    const running = (await app!.api("/conversations", { body: {}, user: "alice" })).body.id as string;
    await app!.api(`/conversations/${running}/messages`, { body: { text: "slow" }, user: "alice" });
    await until(async () => app!.gate.current.reached);
    expect((await studio(`conversations/${running}/abort`, "admin", { body: {} })).status).toBe(200);
    const waiting = await app!.converse("alice", "researcher", ["ask Who?"]);
    const slotId = ((await app!.waitIdle(waiting, "alice")).slots as Array<{ id: string }>)[0]!.id;
    const answered = await studio(`conversations/${waiting}/questions/${slotId}`, "admin", {
      body: { resolve: { name: "Ada" } },
    });
    expect(answered.status).toBe(200);
    const entries = (await studio("audit", "admin")).body.entries as Array<Record<string, unknown>>;
    expect(entries.map((e) => [e.action, e.conversationId, e.target])).toEqual([
      ["answer", waiting, slotId],
      ["abort", running, undefined],
    ]);
  });

  it("counts studio turns and forks against the acting user's quotas, not the owner's", async () => {
    app = await startApp(memoryStorage(), {
      limits: { turnsPerMinute: 2, conversationsPerMinute: 1 },
      extensions: [createStudio({ allow: (principal) => principal.id === "admin" })],
    });
    const id = await app.converse("alice", "assistant", ["one", "two"]);
    // alice spent her 2 turns; admin's are untouched.
    expect((await studio(`conversations/${id}/messages`, "admin", { body: { text: "three" } })).status).toBe(202);
    await until(async () => (await messagesOf(id, "alice")).length === 6);
    expect((await studio(`conversations/${id}/messages`, "admin", { body: { text: "four" } })).status).toBe(202);
    await until(async () => (await messagesOf(id, "alice")).length === 8);
    expect((await studio(`conversations/${id}/messages`, "admin", { body: { text: "five" } })).status).toBe(429);
    expect((await studio(`conversations/${id}/fork`, "admin", { body: { at: 0 } })).status).toBe(201);
    expect((await studio(`conversations/${id}/fork`, "admin", { body: { at: 0 } })).status).toBe(429);
    expect((await messagesOf(id, "alice")).length).toBe(8);
  });

  it("forks, edits and switches on SQLite as on memory", async () => {
    const dir = mkdtempSync(join(tmpdir(), "glove-studio-playground-"));
    try {
      app = await startApp(sqliteStorage({ path: join(dir, "glove.db") }), {
        extensions: [createStudio({ allow: (principal) => principal.id === "admin" })],
      });
      const id = await app.converse("alice", "assistant", ["weather Oslo", "thanks"]);
      const first = (await messagesOf(id, "alice"))[0]!;
      const fork = await studio(`conversations/${id}/fork`, "admin", { body: { at: 1 } });
      expect(fork.body).toMatchObject({ owner: "admin", messages: 3 });
      const forkId = fork.body.id as string;
      expect((await studio(`conversations/${forkId}/messages`, "admin", { body: { text: "more" } })).status).toBe(202);
      await until(async () => (await messagesOf(forkId, "admin")).length === 5);
      expect((await messagesOf(forkId, "admin")).at(-1)?.text).toBe("You said: more");
      expect(
        (await studio(`conversations/${id}/messages/${first.id}/edit`, "admin", { body: { text: "hi" } })).status,
      ).toBe(202);
      await until(async () => (await messagesOf(id, "alice"))[0]?.text === "hi");
      expect((await studio(`conversations/${id}/branches/${first.id}`, "admin", { body: {} })).status).toBe(200);
      expect((await messagesOf(id, "alice")).map((m) => m.text)).toContain("thanks");
    } finally {
      await app?.close();
      app = undefined;
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("standalone, every action answers 409 read-only", async () => {
    const storage = memoryStorage();
    const studioApp = await startStudio({ storage, port: 0 });
    try {
      for (const path of ["conversations/x/messages", "conversations/x/regenerate", "conversations/x/fork"]) {
        const response = await fetch(`${studioApp.url}api/${path}`, { method: "POST", body: "{}" });
        expect(response.status, path).toBe(409);
      }
      expect((await fetch(`${studioApp.url}api/audit`)).status).toBe(409);
    } finally {
      await studioApp.close();
    }
  });
});
