/**
 * Hibernation (decision 0033): a conversation nobody reads keeps its last turn's frames for
 * `events.replayWindowMs`, then drops its Glove and frames; the next request rebuilds them from
 * the store, once, however many requests race to wake it. Conversations holding something only
 * in memory (a waiting question, a shown slot) stay awake.
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { Message } from "glove-core";
import { createGloveServer, memoryStorage, sqliteStorage, type AgentContext, type ServerStorage } from "glove-server";
import { startServer, testAgent, type AgentKit, type TestServer } from "./support/harness.js";
import { expectValidHistory } from "./suite/server-suite.js";
import { PROMPT_WAIT_MS } from "../../../test-support/timeouts.js";

const servers: TestServer[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await server.close();
});

async function until(check: () => boolean | Promise<boolean>): Promise<void> {
  for (const deadline = Date.now() + PROMPT_WAIT_MS; !(await check());) {
    if (Date.now() > deadline) throw new Error("timed out");
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** A server whose agent factory counts the Gloves it builds. */
async function start(storage: ServerStorage, script: AgentKit["script"], replayWindowMs: number) {
  const kit: AgentKit = { script, delayMs: 2, toolSignals: [] };
  const built = { count: 0 };
  const agent = testAgent(kit);
  const s = await startServer({
    store: storage,
    kit,
    agents: {
      assistant: (context: AgentContext) => {
        built.count++;
        return agent(context);
      },
    },
    events: { replayWindowMs },
  });
  servers.push(s);
  return { s, built };
}

/** One message, read to its end on a stream that then closes; the events of that stream. */
async function turn(s: TestServer, id: string, text: string) {
  const tab = s.events(id);
  await tab.waitForEvent("snapshot");
  expect((await s.api(`/conversations/${id}/messages`, { body: { text } })).status).toBe(202);
  await tab.waitForEvent("turn_end");
  await tab.close();
  return tab.events;
}

const assistantText = (messages: Message[]) =>
  messages
    .filter((m) => m.sender === "agent")
    .map((m) => m.text)
    .join("|");

const storages: Array<[string, () => ServerStorage]> = [
  ["memory", () => memoryStorage()],
  ["SQLite", () => sqliteStorage({ path: join(mkdtempSync(join(tmpdir(), "glove-hibernation-")), "glove.db") })],
];

describe.each(storages)("hibernation (%s storage)", (_name, storage) => {
  it("drops the Glove after the replay window and rebuilds it once for the next message", async () => {
    const { s, built } = await start(storage(), [{ text: "first answer" }, { text: "second answer" }], 300);
    const id = await s.conversation();
    await turn(s, id, "one");
    expect(built.count).toBe(1);
    await until(() => s.server.hibernatedConversations === 1);
    // Still counted as live (a small record) until idleTimeoutMs.
    expect(s.server.liveConversations).toBe(1);
    const asleep = (await s.api(`/conversations/${id}`)).body;
    expect(built.count).toBe(2);
    expect(asleep.messages.map((m: Message) => m.text)).toEqual(["one", "first answer"]);
    expect(asleep.stats.turns).toBe(1);
    await turn(s, id, "two");
    expect(built.count).toBe(2);
    const after = (await s.api(`/conversations/${id}`)).body;
    expect(assistantText(after.messages)).toBe("first answer|second answer");
    expect(after.stats.turns).toBe(2);
    expectValidHistory(after.messages);
  });

  it("replays exactly the missed frames within the window, and a snapshot without duplicates after it", async () => {
    const { s } = await start(storage(), [{ text: "alpha beta gamma delta" }], 600);
    const id = await s.conversation();
    const seen = await turn(s, id, "hello");
    const started = seen.find((e) => e.event === "turn_start")!;
    const missed = seen.filter((e) => e.id !== undefined && e.id > started.id!);
    expect(missed.some((e) => e.event === "text_delta")).toBe(true);

    // A client back from a blip: exactly the frames after its last id, no snapshot.
    const back = s.events(id, { after: started.id! });
    await back.waitForEvent("turn_end");
    await back.close();
    expect(back.events.map((e) => [e.id, e.event])).toEqual(missed.map((e) => [e.id, e.event]));

    // After the window: the frames are gone; the same reconnect starts from a snapshot holding the whole text once.
    await until(() => s.server.hibernatedConversations === 1);
    const late = s.events(id, { after: started.id! });
    const snapshot = await late.waitForEvent("snapshot");
    await late.close();
    const data = snapshot.data as { messages: Message[]; streamingText: string; busy: boolean; lastEventId: number };
    expect(late.events.filter((e) => e.event === "text_delta")).toEqual([]);
    expect(assistantText(data.messages)).toBe("alpha beta gamma delta");
    expect(data.streamingText).toBe("");
    expect(data.busy).toBe(false);
    // Event ids keep growing across the sleep: a client's last id is never reused.
    expect(data.lastEventId).toBeGreaterThan(seen.at(-1)!.id!);
  });

  it("wakes once when requests race, and aborts and answers work after waking", async () => {
    const askAge = { toolCalls: [{ name: "ask_age", input: { question: "How old are you?" }, id: "age-1" }] };
    const slow = { toolCalls: [{ name: "slow_tool", input: {}, id: "slow-1" }] };
    const { s, built } = await start(storage(), [{ text: "hi" }, slow, askAge, { text: "Thanks, 42 noted." }], 150);
    const id = await s.conversation();
    await turn(s, id, "hello");
    await until(() => s.server.hibernatedConversations === 1);
    const before = built.count;
    const tab = s.events(id);
    const [a, b, message] = await Promise.all([
      s.api(`/conversations/${id}`),
      s.api(`/conversations/${id}/branches`),
      s.api(`/conversations/${id}/messages`, { body: { text: "work slowly" } }),
    ]);
    expect([a.status, b.status, message.status]).toEqual([200, 200, 202]);
    expect(built.count).toBe(before + 1);

    await tab.waitForEvent("tool_use", (d) => d.name === "slow_tool");
    const aborted = await s.api(`/conversations/${id}/abort`, { body: {} });
    expect(aborted.body.aborted).toBe(true);
    await tab.waitForEvent("turn_end", (d) => d.status === "aborted");
    await tab.close();

    // Asleep again, then a question: asked, answered and finished on the woken Glove.
    await until(() => s.server.hibernatedConversations === 1);
    const asking = s.events(id);
    await asking.waitForEvent("snapshot");
    await s.api(`/conversations/${id}/messages`, { body: { text: "Register me" } });
    const pushed = await asking.waitForEvent("slot_push");
    const slotId = (pushed.data as { slot: { id: string } }).slot.id;
    expect((await s.api(`/conversations/${id}/slots/${slotId}`, { body: { resolve: { age: 42 } } })).status).toBe(200);
    await asking.waitForEvent("turn_end", (d) => d.status === "done");
    await asking.close();
    const history = (await s.api(`/conversations/${id}`)).body.messages as Message[];
    expect(history.at(-1)!.text).toBe("Thanks, 42 noted.");
    expectValidHistory(history);
  });

  it("keeps a conversation awake while a question waits or a slot is shown", async () => {
    const askAge = { toolCalls: [{ name: "ask_age", input: { question: "How old are you?" }, id: "age-1" }] };
    const card = { toolCalls: [{ name: "show_card", input: { title: "Hi" }, id: "card-1" }] };
    const { s, built } = await start(storage(), [askAge, card, { text: "Shown." }, { text: "Thanks, 7 noted." }], 60);
    const waiting = await s.conversation();
    const tab = s.events(waiting);
    await tab.waitForEvent("snapshot");
    await s.api(`/conversations/${waiting}/messages`, { body: { text: "Register me" } });
    const slotId = ((await tab.waitForEvent("slot_push")).data as { slot: { id: string } }).slot.id;
    await tab.close();
    const shown = await s.conversation();
    await turn(s, shown, "show me");

    // Many windows later, both are still awake (their slots live only in memory).
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(s.server.hibernatedConversations).toBe(0);
    expect(built.count).toBe(2);
    expect((await s.api(`/conversations/${shown}`)).body.slots).toEqual([
      expect.objectContaining({ toolName: "show_card", status: "shown" }),
    ]);
    expect((await s.api(`/conversations/${waiting}/slots/${slotId}`, { body: { resolve: { age: 7 } } })).status).toBe(
      200,
    );
    await until(
      async () => (await s.api(`/conversations/${waiting}`)).body.messages.at(-1)?.text === "Thanks, 7 noted.",
    );
    expect(built.count).toBe(2);
  });
});

describe("hibernating conversations and the other limits", () => {
  it("are forgotten on delete without waking, and dropped first past maxLiveConversations", async () => {
    const kit: AgentKit = { script: [], delayMs: 2, toolSignals: [] };
    const built = { count: 0 };
    const agent = testAgent(kit);
    const s = await startServer({
      store: memoryStorage(),
      kit,
      agents: { assistant: (context: AgentContext) => (built.count++, agent(context)) },
      events: { replayWindowMs: 60 },
      maxLiveConversations: 2,
    });
    servers.push(s);
    const [a, b] = [await s.conversation(), await s.conversation()];
    await turn(s, a, "one");
    await turn(s, b, "two");
    await until(() => s.server.hibernatedConversations === 2);
    expect((await s.api(`/conversations/${a}`, { method: "DELETE" })).status).toBe(204);
    expect([s.server.liveConversations, s.server.hibernatedConversations, built.count]).toEqual([1, 1, 2]);
    const c = await s.conversation();
    await turn(s, c, "three");
    const d = await s.conversation();
    await turn(s, d, "four");
    // Four opened, two allowed: sleeping ones are dropped first; a dropped one reopens from the store.
    await until(() => s.server.liveConversations <= 2);
    expect((await s.api(`/conversations/${b}`)).body.messages.map((m: Message) => m.text)).toEqual([
      "two",
      "(no more script)",
    ]);
  });
});

describe("replayWindowMs", () => {
  it("is a positive number", () => {
    for (const bad of [0, -1, Number.NaN, "10" as unknown as number]) {
      expect(() =>
        createGloveServer({
          agents: { a: () => testAgent({ script: [], delayMs: 0, toolSignals: [] })({ store: undefined! }) },
          authenticate: () => null,
          store: memoryStorage(),
          events: { replayWindowMs: bad },
        }),
      ).toThrow(expect.objectContaining({ code: "GLOVE_CONFIGURATION" }));
    }
  });
});
