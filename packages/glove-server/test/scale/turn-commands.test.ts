/**
 * What one turn costs the scale mode in Redis commands and catalog writes (bench/server-scale
 * "Round 4"): counted with MONITOR on the test's own key prefix and a counting catalog.
 */
import { afterAll, describe, expect, it } from "vitest";
import { ScriptedModel } from "glove-core/testing";
import { postgresStorage } from "glove-server/postgres";
import { Redis } from "ioredis";
import type { ConversationCatalog, ConversationRecord, ServerStorage } from "../../src/storage/types.js";
import { conversationKeys } from "../../src/scale/redis/keys.js";
import { SseClient } from "../support/sse-client.js";
import { createConversation, inProcessScaleEnv, postMessage, scaledServer, testGlove } from "./support/in-process.js";
import { REDIS_URL } from "./support/scale-env.js";

const env = inProcessScaleEnv("turncmds");
const monitors: Redis[] = [];
afterAll(() => monitors.forEach((m) => m.disconnect()));

/**
 * Commands sent by clients (not from inside scripts) that touch one of `keys`, and the MULTIs sent
 * on the connections that sent those (MULTI names no key; other clients of this Redis send theirs).
 */
async function watchCommands(keys: string[]): Promise<{ commands: string[][]; stop: () => void }> {
  const monitor = await new Redis(REDIS_URL).monitor();
  monitors.push(monitor);
  const seen: Array<{ args: string[]; source: string }> = [];
  monitor.on("monitor", (_time: string, args: string[], source: string) => {
    if (source !== "lua") seen.push({ args: args.map(String), source });
  });
  const ours = () => new Set(seen.filter((c) => c.args.some((a) => keys.includes(a))).map((c) => c.source));
  return {
    get commands() {
      const sources = ours();
      return seen
        .filter(
          (c) =>
            sources.has(c.source) && (c.args[0]!.toLowerCase() === "multi" || c.args.some((a) => keys.includes(a))),
        )
        .map((c) => c.args);
    },
    stop: () => monitor.disconnect(),
  };
}

/** The test pool, with every statement the server sends through it also given to `seen`. */
function countingPool(seen: (sql: string) => void): typeof env.pool {
  const query = env.pool.query.bind(env.pool) as (...args: unknown[]) => Promise<unknown>;
  const counting = Object.create(env.pool) as typeof env.pool;
  (counting as unknown as { query: typeof query }).query = (...args: unknown[]) => {
    seen(String(typeof args[0] === "string" ? args[0] : (args[0] as { text: string }).text));
    return query(...args);
  };
  return counting;
}

/** A scaled server on `pool` answering from `texts`, one conversation with an open stream, and a way to run a turn to its end. */
async function serverWithConversation(pool: typeof env.pool, texts: string[]) {
  const storage = postgresStorage({ pool, schema: env.schema }) as ServerStorage;
  const model = new ScriptedModel(
    texts.map((text) => ({ text })),
    { delayMs: 1 },
  );
  const server = scaledServer(env, ({ store }) => testGlove(store, model), { store: storage });
  const { url } = await server.listen();
  const id = await createConversation(url);
  const tab = new SseClient(`${url}/conversations/${id}/events`);
  await tab.waitForEvent("snapshot");
  const turn = async (text: string) => {
    const sent = await postMessage(url, id, text);
    expect(sent.status).toBe(202);
    const { turnId } = (await sent.json()) as { turnId: string };
    await tab.waitForEvent("turn_end", (d) => d.turnId === turnId);
  };
  const close = async () => {
    await tab.close();
    await server.close();
  };
  return { id, tab, turn, close };
}

describe("glove-server scale mode: the work a turn adds", () => {
  it("asks Redis for the conversation's turn only at turn_end (not per event), sends no MULTI nor SUBSCRIBE, clears the turn's keys in turn_end's script, and marks the catalog once", async () => {
    const storage = postgresStorage({ pool: env.pool, schema: env.schema }) as ServerStorage;
    const catalog = storage.catalog;
    const marks: Array<{ runningTurnId: string | null; admission: boolean }> = [];
    const counting: ConversationCatalog = {
      create: (record) => catalog.create(record),
      get: (id) => catalog.get(id),
      listByOwner: (owner, limit) => catalog.listByOwner(owner, limit),
      delete: (id) => catalog.delete(id),
      update: (id: string, changes: Partial<ConversationRecord>) => {
        if (changes.runningTurnId !== undefined)
          marks.push({ runningTurnId: changes.runningTurnId, admission: changes.lastTurnId !== undefined });
        return catalog.update(id, changes);
      },
    };
    // Thirty words, streamed word by word: ~35 events in the turn.
    const text = Array.from({ length: 30 }, (_, i) => `word${i}`).join(" ");
    const server = scaledServer(env, ({ store }) => testGlove(store, new ScriptedModel([{ text }], { delayMs: 1 })), {
      store: { ...storage, catalog: counting },
    });
    const { url } = await server.listen();
    const id = await createConversation(url);
    const keys = conversationKeys(env.prefix, id);
    const tab = new SseClient(`${url}/conversations/${id}/events`);
    await tab.waitForEvent("snapshot");
    const watch = await watchCommands([keys.turn, keys.state, keys.seq, keys.abort, keys.attempts, keys.control]);
    const sent = await postMessage(url, id, "hi");
    const { turnId } = (await sent.json()) as { turnId: string };
    await tab.waitForEvent("turn_end");
    // The quota's check after turn_end, and the reply to it, arrive after the event.
    await new Promise((resolve) => setTimeout(resolve, 300));
    watch.stop();
    const events = tab.events.filter((e) => e.event !== "snapshot").length;
    expect(events).toBeGreaterThan(30);
    const commands = watch.commands;
    const named = (name: string, key: string) =>
      commands.filter((c) => c[0]!.toLowerCase() === name && c.includes(key));
    // One GET when the turn is admitted, one when its turn_end arrives (was one per event).
    expect.soft(named("get", keys.turn).length).toBeLessThanOrEqual(2);
    expect.soft(commands.filter((c) => c[0]!.toLowerCase() === "multi")).toEqual([]);
    // Slot answers and aborts find the instance through the run lock: no SUBSCRIBE per turn.
    expect.soft(commands.filter((c) => c.includes(keys.control))).toEqual([]);
    expect
      .soft([
        ...named("hdel", keys.attempts),
        ...named("evalsha", keys.abort).filter((c) => c[2] === "1" && c[3] === keys.abort),
      ])
      .toEqual([]);
    expect(await env.redis.exists(keys.attempts, keys.abort, keys.turn, keys.run)).toBe(0);
    // Marked running when admitted, cleared at the end: no third write by the worker.
    expect.soft(marks).toEqual([
      { runningTurnId: turnId, admission: true },
      { runningTurnId: null, admission: false },
    ]);
    expect(await catalog.get(id)).toMatchObject({ runningTurnId: null, lastTurnStatus: "done" });
    await tab.close();
    await server.close();
  }, 60_000);

  it("admits a message after a turn that ended done without reading stored questions (Redis marks it), and reads them when the mark is missing", async () => {
    const waitReads: string[] = [];
    const pool = countingPool((sql) => sql.includes("glove_waits") && waitReads.push(sql));
    const { id, turn, close } = await serverWithConversation(pool, ["one", "two", "three"]);
    const keys = conversationKeys(env.prefix, id);
    await turn("first");
    const afterFirst = waitReads.length;
    expect(afterFirst).toBeGreaterThan(0); // no mark before the first turn: the store is asked
    expect(await env.redis.hget(keys.state, "noWaits")).toBe("1");
    await turn("second");
    expect(waitReads.length).toBe(afterFirst);
    // Without the mark (a turn that did not end "done", or Redis lost it) the store is asked again.
    await env.redis.hdel(keys.state, "noWaits");
    await turn("third");
    expect(waitReads.length).toBeGreaterThan(afterFirst);
    await close();
  }, 60_000);

  it("a turn's worker opens its store with no query, takes the fence with the catalog row in one statement, and reads the history's length, not the history", async () => {
    const statements: string[] = [];
    const { tab, turn, close } = await serverWithConversation(
      countingPool((sql) => statements.push(sql)),
      ["one", "two"],
    );
    await turn("first");
    statements.length = 0;
    await turn("second");
    const matching = (pattern: RegExp) => statements.filter((sql) => pattern.test(sql.replace(/\s+/g, " ")));
    expect(matching(/INSERT INTO \S+glove_sessions/)).toEqual([]);
    expect(matching(/SELECT seq, body FROM \S+glove_messages WHERE session_id = \$1 ORDER BY seq/)).toEqual([]);
    const fences = matching(/gloveserver_turn_fences/);
    expect(fences).toHaveLength(1);
    expect(fences[0]).toMatch(/gloveserver_conversations/);
    expect(matching(/SELECT \* FROM \S+gloveserver_conversations WHERE id/)).toHaveLength(1); // the admission's
    // The length read instead of the history is right: the second turn's messages follow the first's.
    const appended = tab.events
      .filter((e) => e.event === "messages_appended")
      .map((e) => (e.data as { startIndex: number }).startIndex);
    expect(appended).toEqual([0, 1, 2, 3]);
    await close();
  }, 60_000);
});
