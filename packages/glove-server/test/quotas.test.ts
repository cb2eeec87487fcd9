/**
 * Per-principal quotas: conversations kept and created per minute, turns running at once and
 * started per minute. Refusals are 429 with retry-after and a code; other principals are not
 * affected, and a slot is free again once its turn has ended.
 */
import { afterEach, describe, expect, it } from "vitest";
import { ConfigurationError } from "glove-core";
import { createGloveServer, memoryStorage } from "glove-server";
import { authenticate, startServer, testAgent, type TestServer } from "./support/harness.js";
import { acceptedSoon } from "./support/polling.js";

let t: TestServer | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});
const start = async (extra: Parameters<typeof startServer>[0] = {}) =>
  (t = await startServer({ store: memoryStorage(), ...extra }));
const slowTurn = { toolCalls: [{ name: "slow_tool", input: {} }] };

/** A quota's 429: its code, retry-after, and a body that says how the operator raises the quota or turns it off. */
function expect429(
  response: { status: number; body: { error: { code: string; message: string } }; headers: Headers },
  code: string,
): void {
  expect(response.status).toBe(429);
  expect(response.body.error.code).toBe(code);
  expect(Number(response.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
  expect(response.body.error.message).toMatch(
    /raise limits\.\w+ in createGloveServer\(\{ limits \}\), or set it to Infinity/,
  );
}

describe("conversation quotas", () => {
  it("limits new conversations per minute per principal (default 30)", async () => {
    const s = await start();
    // A burst of 30, then one more every 2 s: on a slow machine a few more may pass before the refusal.
    const started = Date.now();
    let created = 0;
    let refused = await s.api("/conversations", { body: {} });
    for (; refused.status === 201 && created < 200; created++) refused = await s.api("/conversations", { body: {} });
    expect(created).toBeGreaterThanOrEqual(30);
    expect(created).toBeLessThanOrEqual(30 + Math.ceil((Date.now() - started) / 2000));
    expect429(refused, "GLOVE_RATE_LIMITED");
    expect(refused.body.error.message).toMatch(/limits\.conversationsPerMinute/);
    expect((await s.api("/conversations", { body: {}, user: "bob" })).status).toBe(201);
  });

  it("limits the conversations one principal keeps; deleting one makes room", async () => {
    const s = await start({ limits: { conversationsPerPrincipal: 2 } });
    const first = await s.conversation();
    await s.conversation();
    const refused = await s.api("/conversations", { body: {} });
    expect429(refused, "GLOVE_TOO_MANY_CONVERSATIONS");
    expect(refused.body.error.message).toMatch(/DELETE/);
    expect((await s.api("/conversations", { body: {}, user: "bob" })).status).toBe(201);
    expect((await s.api(`/conversations/${first}`, { method: "DELETE" })).status).toBe(204);
    expect((await s.api("/conversations", { body: {} })).status).toBe(201);
  });
});

describe("turn quotas", () => {
  it("limits turns running at once per principal, and frees the slot when a turn ends", async () => {
    const s = await start({
      limits: { concurrentTurnsPerPrincipal: 2 },
      kit: { script: [slowTurn, slowTurn, slowTurn, slowTurn] },
    });
    const [a, b, c] = [await s.conversation(), await s.conversation(), await s.conversation()];
    expect(
      (await s.api(`/conversations/${a}/messages`, { body: { text: "one", clientMessageId: "m-a" } })).status,
    ).toBe(202);
    // The same message again answers the turn it started, without taking a second slot.
    expect(
      (await s.api(`/conversations/${a}/messages`, { body: { text: "one", clientMessageId: "m-a" } })).body.duplicate,
    ).toBe(true);
    expect((await s.api(`/conversations/${b}/messages`, { body: { text: "two" } })).status).toBe(202);
    const refused = await s.api(`/conversations/${c}/messages`, { body: { text: "three" } });
    expect429(refused, "GLOVE_TOO_MANY_TURNS");
    expect(refused.body.error.message).toMatch(/limits\.concurrentTurnsPerPrincipal/);
    // Bob has his own slots.
    const bobs = await s.conversation("bob");
    expect((await s.api(`/conversations/${bobs}/messages`, { body: { text: "hi" }, user: "bob" })).status).toBe(202);
    // A turn that ended (here: aborted) frees its slot.
    expect((await s.api(`/conversations/${a}/abort`, { body: {} })).status).toBe(200);
    expect(await acceptedSoon(() => s.api(`/conversations/${c}/messages`, { body: { text: "three" } }))).toBe(202);
    for (const id of [b, c, bobs])
      await s.api(`/conversations/${id}/abort`, { body: {}, user: id === bobs ? "bob" : "alice" });
  });

  it("a retried message at the running-turn cap gets its own turn back, not a 429", async () => {
    const s = await start({ limits: { concurrentTurnsPerPrincipal: 1 }, kit: { script: [slowTurn] } });
    const a = await s.conversation();
    const sent = await s.api(`/conversations/${a}/messages`, { body: { text: "one", clientMessageId: "m-1" } });
    expect(sent.status).toBe(202);
    // The client lost the 202 (a dropped connection) and sends the same message again.
    const retried = await s.api(`/conversations/${a}/messages`, { body: { text: "one", clientMessageId: "m-1" } });
    expect(retried.status).toBe(202);
    expect(retried.body).toEqual({ turnId: sent.body.turnId, duplicate: true });
    await s.api(`/conversations/${a}/abort`, { body: {} });
  });

  it("counts queued turns, and frees them when a queue is dropped by an abort", async () => {
    const s = await start({
      busy: "queue",
      limits: { concurrentTurnsPerPrincipal: 2 },
      kit: { script: [slowTurn, { text: "queued" }, slowTurn] },
    });
    const [a, b] = [await s.conversation(), await s.conversation()];
    expect((await s.api(`/conversations/${a}/messages`, { body: { text: "runs" } })).status).toBe(202);
    expect((await s.api(`/conversations/${a}/messages`, { body: { text: "waits" } })).status).toBe(202);
    expect429(await s.api(`/conversations/${b}/messages`, { body: { text: "no room" } }), "GLOVE_TOO_MANY_TURNS");
    expect((await s.api(`/conversations/${a}/abort`, { body: {} })).status).toBe(200);
    expect(await acceptedSoon(() => s.api(`/conversations/${b}/messages`, { body: { text: "room" } }))).toBe(202);
    await s.api(`/conversations/${b}/abort`, { body: {} });
  });

  it("limits turns started per minute per principal; a retried message costs no slot", async () => {
    const s = await start({
      limits: { turnsPerMinute: 2 },
      kit: { script: [{ text: "1" }, { text: "2" }, { text: "3" }], delayMs: 0 },
    });
    const id = await s.conversation();
    const events = s.events(id);
    expect((await s.api(`/conversations/${id}/messages`, { body: { text: "one" } })).status).toBe(202);
    await events.waitForEvent("turn_end");
    expect((await s.api(`/conversations/${id}/messages`, { body: { text: "two" } })).status).toBe(202);
    await events.waitFor((all) => all.filter((e) => e.event === "turn_end").length === 2);
    const refused = await s.api(`/conversations/${id}/messages`, { body: { text: "three" } });
    expect429(refused, "GLOVE_RATE_LIMITED");
    expect(refused.body.error.message).toMatch(/limits\.turnsPerMinute/);
    expect(
      (await s.api(`/conversations/${await s.conversation("bob")}/messages`, { body: { text: "hi" }, user: "bob" }))
        .status,
    ).toBe(202);
  });
});

describe("a trusted backend calling as one principal for many users", () => {
  it("meets the default of 4 running turns at once; the 429 names the option, and Infinity turns it off", async () => {
    const turns = (n: number) => Array.from({ length: n }, () => slowTurn);
    const s = await start({ kit: { script: turns(5) } });
    const ids = await Promise.all(Array.from({ length: 5 }, () => s.conversation("backend")));
    for (const id of ids.slice(0, 4))
      expect((await s.api(`/conversations/${id}/messages`, { body: { text: "hi" }, user: "backend" })).status).toBe(
        202,
      );
    const fifth = await s.api(`/conversations/${ids[4]}/messages`, { body: { text: "hi" }, user: "backend" });
    expect429(fifth, "GLOVE_TOO_MANY_TURNS");
    expect(fifth.body.error.message).toContain("limits.concurrentTurnsPerPrincipal");
    expect(fifth.body.error.message).toContain("Infinity");
    for (const id of ids.slice(0, 4)) await s.api(`/conversations/${id}/abort`, { body: {}, user: "backend" });
    await s.close();

    // As the body says: with the quota off, the same backend runs all five at once.
    const off = await start({ limits: { concurrentTurnsPerPrincipal: Infinity }, kit: { script: turns(5) } });
    const more = await Promise.all(Array.from({ length: 5 }, () => off.conversation("backend")));
    for (const id of more)
      expect((await off.api(`/conversations/${id}/messages`, { body: { text: "hi" }, user: "backend" })).status).toBe(
        202,
      );
    for (const id of more) await off.api(`/conversations/${id}/abort`, { body: {}, user: "backend" });
  });
});

describe("quota options", () => {
  it("accept Infinity to switch a quota off and refuse anything else that is not a positive number", async () => {
    const make = (limits: Record<string, number>) =>
      createGloveServer({
        agents: { assistant: testAgent({ script: [], delayMs: 0, toolSignals: [] }) },
        authenticate,
        store: memoryStorage(),
        limits,
      });
    for (const name of [
      "conversationsPerPrincipal",
      "conversationsPerMinute",
      "concurrentTurnsPerPrincipal",
      "turnsPerMinute",
    ]) {
      expect(() => make({ [name]: 0 }), name).toThrow(ConfigurationError);
      expect(() => make({ [name]: Number.NaN }), name).toThrow(new RegExp(`limits\\.${name}`));
    }
    const open = make({ conversationsPerMinute: Infinity });
    try {
      for (let i = 0; i < 40; i++) {
        const created = await open.fetch(
          new Request("http://localhost/conversations", { method: "POST", headers: { authorization: "Bearer u" } }),
        );
        expect(created.status).toBe(201);
      }
    } finally {
      await open.close();
    }
  });
});
