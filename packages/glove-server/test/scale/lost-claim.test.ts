import { describe, expect, it } from "vitest";
import { ScriptedModel } from "glove-core/testing";
import { conversationKeys } from "../../src/scale/redis/keys.js";
import { SseClient } from "../support/sse-client.js";
import {
  createConversation,
  historyOf,
  inProcessScaleEnv,
  postMessage,
  scaledServer,
  testGlove,
} from "./support/in-process.js";

const env = inProcessScaleEnv("lostclaim");
const { prefix, redis } = env;

describe("glove-server scale mode: a claim whose instance died before queueing (no clientMessageId to retry with)", () => {
  it("a claim younger than 10 s answers 409; one older than 10 s with no job is released and the new message runs", async () => {
    const server = scaledServer(env, ({ store }) => testGlove(store, new ScriptedModel([{ text: "Ran." }])));
    const { url } = await server.listen();
    const id = await createConversation(url);
    const post = (text: string) => postMessage(url, id, text);
    const keys = conversationKeys(prefix, id);
    const dead = crypto.randomUUID();
    // What the dead instance left: the conversation claimed by a turn that never got a job.
    await redis.set(keys.turn, `${dead}|${Date.now() - 2_000}`);
    const young = await post("too early");
    expect(young.status).toBe(409);
    expect((await redis.get(keys.turn))?.startsWith(`${dead}|`)).toBe(true); // kept: it may still get its job
    await redis.set(keys.turn, `${dead}|${Date.now() - 11_000}`);
    const tab = new SseClient(`${url}/conversations/${id}/events`);
    await tab.waitForEvent("snapshot");
    const sent = await post("hi");
    expect(sent.status).toBe(202);
    const { turnId } = (await sent.json()) as { turnId: string };
    expect(turnId).not.toBe(dead);
    expect((await tab.waitForEvent("turn_end")).data).toEqual({ turnId, status: "done" });
    const history = await historyOf(url, id);
    expect(history.map((m) => m.text)).toEqual(["hi", "Ran."]);
    await tab.close();
    await server.close();
  });
});
