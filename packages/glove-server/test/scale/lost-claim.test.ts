import { afterAll, describe, expect, it } from "vitest";
import { Redis } from "ioredis";
import pg from "pg";
import { Displaymanager, Glove, type Message } from "glove-core";
import { ScriptedModel } from "glove-core/testing";
import { createGloveServer } from "glove-server";
import { postgresStorage } from "glove-server/postgres";
import { redisScale } from "glove-server/redis";
import { conversationKeys } from "../../src/scale/redis/keys.js";
import { SseClient } from "../support/sse-client.js";
import { dropRedisPrefix, PG_URL, REDIS_URL, uniqueName } from "./support/scale-env.js";

const schema = uniqueName("lostclaim");
const prefix = uniqueName("lostclaim");
const pool = new pg.Pool({ connectionString: PG_URL, max: 5 });
const redis = new Redis(REDIS_URL);
afterAll(async () => {
  redis.disconnect();
  await pool.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
  await pool.end();
  await dropRedisPrefix(prefix);
});

describe("glove-server scale mode: a claim whose instance died before queueing (no clientMessageId to retry with)", () => {
  it("a claim younger than 10 s answers 409; one older than 10 s with no job is released and the new message runs", async () => {
    const server = createGloveServer({
      authenticate: () => ({ id: "ada" }),
      store: postgresStorage({ pool, schema }),
      scale: redisScale({ redis: REDIS_URL, prefix, turnLockMs: 2000 }),
      agents: {
        assistant: ({ store }) =>
          new Glove({ store, model: new ScriptedModel([{ text: "Ran." }]), displayManager: new Displaymanager(), systemPrompt: "t", compaction_config: { compaction_instructions: "S." } }),
      },
    });
    const { url } = await server.listen();
    const headers = { "content-type": "application/json" };
    const post = (text: string) => fetch(`${url}/conversations/${id}/messages`, { method: "POST", headers, body: JSON.stringify({ text }) });
    const id = ((await (await fetch(`${url}/conversations`, { method: "POST", headers, body: "{}" })).json()) as { id: string }).id;
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
    const history = ((await (await fetch(`${url}/conversations/${id}`)).json()) as { messages: Message[] }).messages;
    expect(history.map((m) => m.text)).toEqual(["hi", "Ran."]);
    await tab.close();
    await server.close();
  });
});
