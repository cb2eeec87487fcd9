import { describe, expect, it } from "vitest";
import { Queue } from "bullmq";
import type { Message } from "glove-core";
import { ScriptedModel } from "glove-core/testing";
import { postgresStorage } from "glove-server/postgres";
import { conversationKeys } from "../../src/scale/redis/keys.js";
import { SseClient } from "../support/sse-client.js";
import { expectValidHistory } from "../suite/server-suite.js";
import { REDIS_URL } from "./support/scale-env.js";
import {
  createConversation,
  historyOf,
  inProcessScaleEnv,
  postMessage,
  scaledServer,
  testGlove,
} from "./support/in-process.js";
import { PROMPT_WAIT_MS } from "../../../../test-support/timeouts.js";

const env = inProcessScaleEnv("takeover");
const { schema, prefix, pool, redis } = env;

/**
 * A worker died mid-turn, leaving PostgreSQL and Redis as its last step did; its job is queued
 * again (as BullMQ's stalled check does). The instance that takes it continues from there.
 */
async function takeOver(stored: Message[], model: ScriptedModel, runs: string[]) {
  const storage = postgresStorage({ pool, schema });
  const server = scaledServer(
    env,
    ({ store }) =>
      testGlove(store, model)
        .fold({
          name: "lookup",
          description: "Reads.",
          rerunOnRecovery: true,
          do: async () => (runs.push("lookup"), "found"),
        })
        .fold({ name: "charge", description: "Charges.", do: async () => (runs.push("charge"), "charged") }),
    { turnLockMs: 1000, store: storage },
  );
  const { url } = await server.listen();
  const id = await createConversation(url);
  await (await storage.store(id)).appendMessages(stored);
  const turnId = crypto.randomUUID();
  const keys = conversationKeys(prefix, id);
  await redis.set(keys.turn, `${turnId}|${Date.now()}`);
  await redis.hset(keys.state, "turnBase", "0", "baseTurn", turnId, "messageCount", "0");
  const tab = new SseClient(`${url}/conversations/${id}/events`);
  await tab.waitForEvent("snapshot");
  const queue = new Queue("glove-turns", {
    connection: { host: new URL(REDIS_URL).hostname, port: Number(new URL(REDIS_URL).port || 6379) },
    prefix: `${prefix}:bull`,
  });
  await queue.add(
    "turn",
    { conversationId: id, turnId, text: stored[0]!.text, owner: "ada", agent: "assistant" },
    { jobId: turnId },
  );
  await queue.close();
  await tab.waitForEvent("turn_end");
  const history = await historyOf(url, id);
  await tab.close();
  await server.close();
  return { events: tab.events, history, turnId };
}

describe("glove-server scale mode: taking over a dead worker's turn", () => {
  it("an answer the dead worker stored is announced, not asked for again", async () => {
    const model = new ScriptedModel([{ text: "A second answer: must not happen." }]);
    const { events, history, turnId } = await takeOver(
      [
        { sender: "user", text: "hi" },
        { sender: "agent", text: "Hello." },
      ],
      model,
      [],
    );
    expect(model.requests).toHaveLength(0);
    expect(events.map((e) => e.event)).toEqual(["snapshot", "turn_resumed", "messages_appended", "turn_end"]);
    expect(events[1]!.data).toEqual({ turnId, attempt: 1 });
    expect((events[2]!.data as { messages: Message[]; startIndex: number }).startIndex).toBe(0);
    expect(events[3]!.data).toEqual({ turnId, status: "done" });
    expect(history.map((m) => m.text)).toEqual(["hi", "Hello."]);
  });

  it("calls left running are re-run when their tool allows it, else answered as interrupted; then the model goes on", async () => {
    const runs: string[] = [];
    const model = new ScriptedModel([{ text: "Done after the takeover." }]);
    const stored: Message[] = [
      { sender: "user", text: "buy" },
      {
        sender: "agent",
        text: "",
        tool_calls: [
          { tool_name: "lookup", input_args: {}, id: "c1" },
          { tool_name: "charge", input_args: {}, id: "c2" },
        ],
      },
    ];
    const { events, history } = await takeOver(stored, model, runs);
    expect(runs).toEqual(["lookup"]);
    expect(model.requests).toHaveLength(1);
    expectValidHistory(history);
    const results = history.flatMap((m) => m.tool_results ?? []);
    expect(results.map((r) => [r.call_id, r.result.status])).toEqual([
      ["c1", "success"],
      ["c2", "aborted"],
    ]);
    expect(history.at(-1)?.text).toBe("Done after the takeover.");
    expect(events.find((e) => e.event === "turn_end")?.data).toMatchObject({ status: "done" });
  });
});

describe("glove-server scale mode: a worker whose run lock lapsed (e.g. its event loop stalled past turnLockMs)", () => {
  it("stops, and the turn continues from the stored step instead of being dropped", async () => {
    const model = new ScriptedModel([
      { toolCalls: [{ name: "lapse", input: {}, id: "s1" }] },
      { text: "Continued after the lapse." },
    ]);
    const server = scaledServer(env, ({ store, conversationId }) =>
      testGlove(store, model).fold({
        name: "lapse",
        description: "Its run lock expires meanwhile (BullMQ's job lock does not).",
        do: async () => {
          await redis.del(conversationKeys(prefix, conversationId).run);
          return "computed";
        },
      }),
    );
    const { url } = await server.listen();
    const id = await createConversation(url);
    const tab = new SseClient(`${url}/conversations/${id}/events`);
    await tab.waitForEvent("snapshot");
    await postMessage(url, id, "compute");
    const end = await tab.waitForEvent("turn_end", undefined, PROMPT_WAIT_MS);
    expect(end.data).toMatchObject({ status: "done" });
    expect(tab.events.some((e) => e.event === "turn_resumed")).toBe(true);
    const history = await historyOf(url, id);
    expectValidHistory(history);
    expect(history.filter((m) => m.sender === "agent" && !m.tool_calls?.length).map((m) => m.text)).toEqual([
      "Continued after the lapse.",
    ]);
    await tab.close();
    await server.close();
  });
});

describe("glove-server scale mode: a stream opened while a worker prepares the first turn", () => {
  it("starts from the event counter, not from the catalog's reservation ahead of it", async () => {
    const storage = postgresStorage({ pool, schema });
    const server = scaledServer(env, ({ store }) => testGlove(store, new ScriptedModel([{ text: "First answer." }])), {
      store: storage,
    });
    const { url } = await server.listen();
    const id = await createConversation(url);
    // What a worker does before the first event: counter set up, then the catalog reserved ahead.
    await redis.set(conversationKeys(prefix, id).seq, "0", "NX");
    await storage.catalog.update(id, { eventIdsReserved: 1_000_000 });
    const tab = new SseClient(`${url}/conversations/${id}/events`);
    expect((await tab.waitForEvent("snapshot")).id).toBe(0);
    await postMessage(url, id, "hi");
    const end = await tab.waitForEvent("turn_end");
    expect(end.data).toMatchObject({ status: "done" });
    expect(tab.events.filter((e) => e.event !== "snapshot").map((e) => e.id)[0]).toBe(1);
    await tab.close();
    await server.close();
  });
});

describe("glove-server scale mode: close() hands running turns over", () => {
  it("an instance shutting down mid-turn leaves the turn to another, which finishes it on the same stream", async () => {
    const storage = postgresStorage({ pool, schema });
    const model = new ScriptedModel([
      { toolCalls: [{ name: "slow", input: {}, id: "w1" }] },
      { text: "Finished elsewhere." },
    ]);
    const make = () =>
      scaledServer(
        env,
        ({ store }) =>
          testGlove(store, model).fold({
            name: "slow",
            description: "Takes a while; abortable.",
            do: async (_input, _display, _glove, signal) =>
              new Promise((resolve, reject) => {
                const timer = setTimeout(() => resolve("slow done"), 30_000);
                signal?.addEventListener("abort", () => (clearTimeout(timer), reject(new Error("stopped"))));
              }),
          }),
        { store: { catalog: storage.catalog, store: storage.store } },
      );
    const a = make();
    const urlA = (await a.listen()).url;
    const id = await createConversation(urlA);
    await postMessage(urlA, id, "work");
    const b = make();
    const urlB = (await b.listen()).url;
    const tab = new SseClient(`${urlB}/conversations/${id}/events`);
    await tab.waitForEvent("tool_use");
    await a.close(); // only A ran turns when the message came; now it leaves
    const end = await tab.waitForEvent("turn_end", undefined, PROMPT_WAIT_MS);
    expect(end.data).toMatchObject({ status: "done" });
    expect(tab.events.some((e) => e.event === "turn_resumed")).toBe(true);
    const history = await historyOf(urlB, id);
    expectValidHistory(history);
    expect(history.at(-1)?.text).toBe("Finished elsewhere.");
    await tab.close();
    await b.close();
  });
});

describe("glove-server scale mode: an instance that died between taking a message and queueing it", () => {
  it("the client's retry (same clientMessageId, any instance) answers the same turn and queues it again", async () => {
    const storage = postgresStorage({ pool, schema });
    const server = scaledServer(env, ({ store }) => testGlove(store, new ScriptedModel([{ text: "Ran after all." }])), {
      store: storage,
    });
    const { url } = await server.listen();
    const id = await createConversation(url);
    // What the dead instance left: the turn claimed, the client id remembered, no job.
    const turnId = crypto.randomUUID();
    const keys = conversationKeys(prefix, id);
    await redis.set(keys.turn, `${turnId}|${Date.now()}`);
    await redis.set(keys.clientMessage("m-1"), turnId);
    await storage.catalog.update(id, { lastClientMessageId: "m-1", lastTurnId: turnId });
    const tab = new SseClient(`${url}/conversations/${id}/events`);
    await tab.waitForEvent("snapshot");
    const retry = (await (
      await fetch(`${url}/conversations/${id}/messages`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ text: "hi", clientMessageId: "m-1" }),
      })
    ).json()) as { turnId: string; duplicate: boolean };
    expect(retry).toEqual({ turnId, duplicate: true });
    expect((await tab.waitForEvent("turn_end")).data).toEqual({ turnId, status: "done" });
    const history = await historyOf(url, id);
    expect(history.map((m) => m.text)).toEqual(["hi", "Ran after all."]);
    await tab.close();
    await server.close();
  });
});
