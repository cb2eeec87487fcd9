/**
 * The inbox wakes the agent (`inbox: { wake: true }`, docs/decisions/0024): an answer resolved
 * through the store — by another process, or in this one — starts a turn that delivers it, seen
 * live by open streams (turn_start { inbox: true }, the stored answer, the model's reply,
 * turn_end); after the running turn when one runs; exactly once even with two servers on one file.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { Glove, type InboxItem, type Message, type PromptRequest, type StoreAdapter } from "glove-core";
import { ScriptedModel, type ScriptedTurn } from "glove-core/testing";
import { SqliteStore } from "glove-sqlite";
import { memoryStorage, sqliteStorage, type GloveServerOptions, type ServerStorage } from "glove-server";
import { startServer, type TestServer } from "./support/harness.js";
import type { SseClient, SseEvent } from "./support/sse-client.js";
import { PROMPT_WAIT_MS, SLOW_WORK_MS } from "../../../test-support/timeouts.js";

const REPLY = "Good news: oat milk is back on Tuesday.";
const dir = mkdtempSync(join(tmpdir(), "glove-server-inbox-wake-"));
const servers: TestServer[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await server.close();
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** What the agents did, over every conversation and server of a test. */
interface World {
  /** The inbox messages each delivery turn answered. */
  deliveries: string[];
  /** The conversation's store as each Glove got it (the server's observed store). */
  stores: Map<string, StoreAdapter>;
  /** Resolves the `hold` tool's wait. */
  release: () => void;
}

function newWorld(): World & { held: Promise<void> } {
  let release = () => undefined as void;
  const held = new Promise<void>((resolve) => (release = resolve));
  return { deliveries: [], stores: new Map(), release, held };
}

/** The model: posts to the inbox for "oat milk?", holds for "hold on", answers an inbox message. */
function reply(world: World, request: PromptRequest): ScriptedTurn {
  const last = request.messages.at(-1)!;
  if (last.tool_results?.length) return { text: "I asked the supplier." };
  if (last.text.startsWith("[Inbox]")) {
    world.deliveries.push(last.text);
    return { text: REPLY };
  }
  if (last.text === "oat milk?")
    return {
      toolCalls: [{ name: "glove_post_to_inbox", input: { tag: "oat_milk", request: "When is oat milk back?" } }],
    };
  if (last.text === "hold on") return { toolCalls: [{ name: "hold", input: {} }] };
  return { text: "Hello." };
}

async function start(
  world: World & { held: Promise<void> },
  options: Partial<GloveServerOptions>,
): Promise<TestServer> {
  const agent = ({ conversationId, store }: { conversationId: string; store: StoreAdapter }) => {
    world.stores.set(conversationId, store);
    return new Glove({
      store,
      model: new ScriptedModel([], { delayMs: 1, fallback: (request) => reply(world, request) }),
      systemPrompt: "You sell coffee.",
      inbox: { wake: true },
    }).fold({
      name: "hold",
      description: "Waits for the test.",
      inputSchema: z.object({}),
      do: async () => (await world.held, "released"),
    });
  };
  const server = await startServer({ agents: { assistant: agent }, ...options });
  servers.push(server);
  return server;
}

/** Posts the item (a turn of its own) and resolves with it once that turn ended. */
async function postItem(s: TestServer, tab: SseClient, id: string, store: StoreAdapter): Promise<InboxItem> {
  expect((await s.api(`/conversations/${id}/messages`, { body: { text: "oat milk?" } })).status).toBe(202);
  await tab.waitForEvent("turn_end");
  const [item] = await store.getInboxItems!();
  expect(item?.status).toBe("pending");
  return item!;
}

const resolve = (store: StoreAdapter, item: InboxItem) =>
  store.updateInboxItem!(item.id, {
    status: "resolved",
    response: "Back on Tuesday.",
    resolved_at: new Date().toISOString(),
  });

/** The events of the turn that starts with `start`, up to its turn_end. */
function turnEvents(tab: SseClient, start: SseEvent): SseEvent[] {
  const from = tab.events.indexOf(start);
  const turnId = (start.data as { turnId: string }).turnId;
  const to = tab.events.findIndex(
    (e, i) => i > from && e.event === "turn_end" && (e.data as { turnId: string }).turnId === turnId,
  );
  return tab.events.slice(from, to + 1);
}

const appended = (events: SseEvent[]) =>
  events.filter((e) => e.event === "messages_appended").flatMap((e) => (e.data as { messages: Message[] }).messages);
const inboxTurns = (tab: SseClient) =>
  tab.events.filter((e) => e.event === "turn_start" && (e.data as { inbox?: boolean }).inbox === true);

async function until(check: () => boolean): Promise<void> {
  for (const deadline = Date.now() + PROMPT_WAIT_MS; !check();) {
    if (Date.now() > deadline) throw new Error("timed out");
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe("inbox: { wake: true } on glove-server", () => {
  it(
    "an answer resolved through the store by another holder of it starts a turn an open stream sees live",
    async () => {
      const world = newWorld();
      const storage = memoryStorage();
      const s = await start(world, { store: storage, events: { inboxPollMs: 50 } });
      const id = await s.conversation();
      const tab = s.events(id);
      await tab.waitForEvent("snapshot");
      const webhookStore = await storage.store(id);
      const item = await postItem(s, tab, id, webhookStore);

      await resolve(webhookStore, item);
      const started = await tab.waitForEvent("turn_start", (d) => d.inbox === true);
      const end = await tab.waitForEvent("turn_end", (d) => d.turnId === (started.data as { turnId: string }).turnId);
      expect(end.data).toMatchObject({ status: "done" });
      const turn = turnEvents(tab, started);
      const texts = appended(turn).map((m) => m.text);
      expect(texts).toHaveLength(2);
      expect(texts[0]).toContain("Back on Tuesday.");
      expect(texts[1]).toBe(REPLY);
      expect(
        turn
          .filter((e) => e.event === "text_delta")
          .map((e) => (e.data as { text: string }).text)
          .join(""),
      ).toBe(REPLY);
      await tab.waitForEvent("inbox", (d) => (d.items as InboxItem[])[0]?.status === "consumed");

      const snapshot = (await s.api(`/conversations/${id}`)).body as { messages: Message[]; busy: boolean };
      expect(snapshot.messages.at(-1)?.text).toBe(REPLY);
      expect(snapshot.busy).toBe(false);
      expect(world.deliveries).toHaveLength(1);
      expect(inboxTurns(tab)).toHaveLength(1);
    },
    SLOW_WORK_MS,
  );

  it(
    "an answer resolved in this process is seen at once (no poll), and delivered only after the running turn",
    async () => {
      const world = newWorld();
      // A poll that never comes in this test: only the write itself can start the delivery.
      const s = await start(world, { store: memoryStorage(), events: { inboxPollMs: 3_600_000 } });
      const id = await s.conversation();
      const tab = s.events(id);
      await tab.waitForEvent("snapshot");
      const store = world.stores.get(id)!;
      const item = await postItem(s, tab, id, store);

      expect((await s.api(`/conversations/${id}/messages`, { body: { text: "hold on" } })).status).toBe(202);
      const holding = await tab.waitForEvent("tool_use", (d) => d.name === "hold");
      await resolve(store, item);
      await tab.waitForEvent("inbox", (d) => (d.items as InboxItem[])[0]?.status === "resolved");
      expect(inboxTurns(tab)).toHaveLength(0);
      world.release();

      const started = await tab.waitForEvent("turn_start", (d) => d.inbox === true);
      await tab.waitForEvent("turn_end", (d) => d.turnId === (started.data as { turnId: string }).turnId);
      const holdEnd = tab.events.findIndex((e, i) => i > tab.events.indexOf(holding) && e.event === "turn_end");
      expect(holdEnd).toBeGreaterThan(-1);
      expect(holdEnd).toBeLessThan(tab.events.indexOf(started));
      expect(world.deliveries).toHaveLength(1);
      expect(appended(turnEvents(tab, started)).at(-1)?.text).toBe(REPLY);
    },
    SLOW_WORK_MS,
  );

  it(
    "two servers over one SQLite file, both watching the conversation and both claiming at once: exactly one delivers",
    async () => {
      const world = newWorld();
      const dbPath = join(dir, "two-servers.db");
      const claims: boolean[] = [];
      const meet = claimsMeet(2, claims);
      const storage = (): ServerStorage => {
        const base = sqliteStorage({ path: dbPath });
        return { ...base, store: async (id) => meet(await base.store(id)) };
      };
      const a = await start(world, { store: storage(), events: { inboxPollMs: 50 } });
      const b = await start(world, { store: storage(), events: { inboxPollMs: 50 } });
      const id = await a.conversation();
      const tabA = a.events(id);
      await tabA.waitForEvent("snapshot");
      const webhook = new SqliteStore({ dbPath, sessionId: id });
      try {
        const item = await postItem(a, tabA, id, webhook);
        const tabB = b.events(id);
        await tabB.waitForEvent("snapshot");

        await resolve(webhook, item);
        await until(() => claims.length === 2);
        expect(claims.filter(Boolean)).toHaveLength(1);
        await until(() => inboxTurns(tabA).length + inboxTurns(tabB).length > 0);
        const winner = inboxTurns(tabA).length > 0 ? tabA : tabB;
        const started = inboxTurns(winner)[0]!;
        await winner.waitForEvent("turn_end", (d) => d.turnId === (started.data as { turnId: string }).turnId);
        // Closed, nothing runs any more: what happened is all there is.
        await Promise.all(servers.splice(0).map((s) => s.close()));

        expect(inboxTurns(tabA).length + inboxTurns(tabB).length).toBe(1);
        expect(world.deliveries).toHaveLength(1);
        const history = await webhook.getMessages();
        expect(history.filter((m) => m.text.startsWith("[Inbox]"))).toHaveLength(1);
        expect(history.at(-1)?.text).toBe(REPLY);
        expect((await webhook.getInboxItems())[0]?.status).toBe("consumed");
      } finally {
        webhook.close();
      }
    },
    SLOW_WORK_MS,
  );
});

/**
 * Holds every server's first claims until `parties` of them arrived, so the servers really race
 * for the answer; records each claim's outcome.
 */
function claimsMeet(parties: number, outcomes: boolean[]): (store: StoreAdapter) => StoreAdapter {
  let arrived = 0;
  let meet = () => undefined as void;
  const met = new Promise<void>((resolve) => (meet = resolve));
  return (store) =>
    new Proxy(store, {
      get(target, key, receiver) {
        const value: unknown = Reflect.get(target, key, receiver);
        if (key !== "consumeInboxItem" || typeof value !== "function")
          return typeof value === "function" ? value.bind(target) : value;
        return async (itemId: string) => {
          if (++arrived === parties) meet();
          await met;
          const won = await target.consumeInboxItem!(itemId);
          outcomes.push(won);
          return won;
        };
      },
    });
}
