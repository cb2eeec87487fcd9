/** Slot answers and aborts reach the instance its run lock names (control-channel.ts). */
import { afterAll, describe, expect, it } from "vitest";
import { Redis } from "ioredis";
import { ControlChannel, type ControlRequest } from "../../src/scale/redis/control-channel.js";
import { dropRedisPrefix, REDIS_URL, uniqueName } from "./support/scale-env.js";

const prefix = uniqueName("control");
const connections: Redis[] = [];
const connect = () => {
  const redis = new Redis(REDIS_URL);
  connections.push(redis);
  return redis;
};
const channel = (id: string) => new ControlChannel(connect(), connect(), prefix, id, () => undefined);
afterAll(async () => {
  for (const redis of connections) redis.disconnect();
  await dropRedisPrefix(prefix);
});

describe("the control channel", () => {
  it("sends a request to the instance named in the run lock, which answers with its turn's handler, or at once that it runs none", async () => {
    const [asker, worker] = [channel("asker"), channel("worker")];
    const runKey = `${prefix}:{c1}:run`;
    const seen: ControlRequest[] = [];
    const stop = await worker.serve(`${prefix}:{c1}:control`, async (request) => {
      seen.push(request);
      return { ok: true, body: { aborted: true } };
    });
    expect(await asker.request(`${prefix}:{c1}:control`, runKey, { op: "abort" }, 30_000)).toBeUndefined(); // no run lock: no turn runs
    await connect().set(runKey, worker.fenceFor("t1"));
    expect(await asker.request(`${prefix}:{c1}:control`, runKey, { op: "abort" }, 30_000)).toEqual({
      ok: true,
      body: { aborted: true },
    });
    expect(seen).toEqual([{ op: "abort" }]);
    await stop();
    // The run lock still names the worker, whose turn no longer serves: told at once, not after the 30 s.
    expect(await asker.request(`${prefix}:{c1}:control`, runKey, { op: "abort" }, 30_000)).toBeUndefined();
    expect(seen).toHaveLength(1);
  });

  it("reaches a worker of an earlier version (a token naming no instance) on the conversation's channel", async () => {
    const asker = channel("asker2");
    const runKey = `${prefix}:{c2}:run`;
    const conversationChannel = `${prefix}:{c2}:control`;
    const older = connect();
    const publisher = connect();
    await older.subscribe(conversationChannel);
    older.on("message", (_channel: string, text: string) => {
      const { reqId, replyTo } = JSON.parse(text) as { reqId: string; replyTo: string };
      void publisher.publish(replyTo, JSON.stringify({ reqId, reply: { ok: true, body: { from: "older" } } }));
    });
    await connect().set(runKey, `t2:${crypto.randomUUID()}`);
    expect(await asker.request(conversationChannel, runKey, { op: "abort" }, 30_000)).toEqual({
      ok: true,
      body: { from: "older" },
    });
  });
});
