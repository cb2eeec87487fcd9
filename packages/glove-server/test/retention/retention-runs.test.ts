/**
 * How runs are bounded and scheduled: a run stops at its time budget between two conversations
 * and the next continues after the last one it examined; on PostgreSQL an instance that cannot
 * take the retention lock skips its run; the background timer runs without being called.
 */
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { createGloveServer } from "../../src/index.js";
import { resolveRetention } from "../../src/retention/retention-options.js";
import { retentionPass } from "../../src/retention/retention-pass.js";
import { authenticate, testAgent } from "../support/harness.js";
import { eventually } from "../support/polling.js";
import { dropTestSchemas, STORAGES } from "./support/storages.js";
import { buildWorld, NOW, type ConversationSpec } from "./support/world.js";

afterAll(dropTestSchemas);

const inactive = (idleDays: number): ConversationSpec => ({
  owner: "alice",
  agent: "short",
  idleDays,
  running: false,
  pendingQuestion: false,
  inMemory: false,
  settled: [],
  branches: 0,
  traces: [],
  subagent: "none",
});
const agents = { short: testAgent({ script: [], delayMs: 0, toolSignals: [] }) };

describe.each(STORAGES)("retention runs (%s)", (_label, makeStorage) => {
  it("stops at the time budget and continues after the last conversation examined", async () => {
    const storage = makeStorage();
    const world = await buildWorld(storage, [inactive(100), inactive(100), inactive(100)]);
    const rules = resolveRetention({ inactiveConversationDays: 30, timeBudgetMs: 10 });
    // A clock that advances 6 ms per reading: the budget runs out during the second conversation.
    let clock = NOW;
    const ctx = { db: storage.retention!, rules, inMemory: () => false, now: () => (clock += 6) - 6 };
    const first = await retentionPass(ctx, "");
    expect(first.report.examined).toBeLessThan(3);
    expect(first.report.wrapped).toBe(false);
    expect(first.cursor).toBe(world[first.report.examined - 1]!.id);
    let cursor = first.cursor;
    let deleted = first.report.conversationsDeleted;
    for (let i = 0; i < 5 && cursor !== ""; i++) {
      const next = await retentionPass(ctx, cursor);
      deleted += next.report.conversationsDeleted;
      cursor = next.cursor;
    }
    expect(deleted).toBe(3);
    for (const c of world) expect(await storage.catalog.get(c.id)).toBeUndefined();
    await storage.close?.();
  });

  it("finds nothing to do on a storage no conversation has used yet", async () => {
    const server = createGloveServer({ agents, authenticate, store: makeStorage(), retention: { traceDays: 1 } });
    expect(await server.runRetention()).toEqual({
      ran: true,
      examined: 0,
      conversationsDeleted: 0,
      rowsDeleted: 0,
      wrapped: true,
    });
    expect(await server.purgeOwner("alice")).toEqual({ conversations: 0, rows: 0 });
    await server.close();
  });

  it("runs in the background every intervalMs", async () => {
    const storage = makeStorage();
    const [old] = await buildWorld(storage, [inactive(100)]);
    const server = createGloveServer({
      agents,
      authenticate,
      store: storage,
      retention: { inactiveConversationDays: 30, intervalMs: 20 },
      log: () => undefined,
    });
    expect(await eventually(async () => (await storage.catalog.get(old!.id)) === undefined)).toBe(true);
    await server.close();
  });
});

describe("the retention lock (PostgreSQL)", () => {
  const makeStorage = STORAGES.find(([label]) => label === "PostgreSQL")![1];
  it("skips a run while another instance holds the retention lock", async () => {
    const storage = makeStorage();
    const [old] = await buildWorld(storage, [inactive(100)]);
    const server = createGloveServer({
      agents,
      authenticate,
      store: storage,
      retention: { inactiveConversationDays: 30 },
    });
    const schema = storage.retention!.prefix.slice(0, -1);
    const other = new pg.Client({
      connectionString: process.env.GLOVE_PG_URL ?? "postgres://postgres@127.0.0.1:5432/test",
    });
    await other.connect();
    await other.query("SELECT pg_advisory_lock(hashtext($1))", [`glove_server_retention:${schema}`]);
    expect(await server.runRetention()).toMatchObject({ ran: false, examined: 0 });
    expect(await storage.catalog.get(old!.id)).toBeDefined();
    await other.end();
    expect(await server.runRetention()).toMatchObject({ ran: true, conversationsDeleted: 1 });
    await server.close();
  });
});
