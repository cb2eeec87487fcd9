import { afterAll, describe, expect, it } from "vitest";
import { Redis } from "ioredis";
import { EventLog } from "../../src/conversations/event-log.js";
import { EventTail } from "../../src/scale/redis/event-tail.js";
import { conversationKeys } from "../../src/scale/redis/keys.js";
import { withScripts } from "../../src/scale/redis/scripts.js";
import { TurnEmitter } from "../../src/scale/redis/turn-emitter.js";
import { dropRedisPrefix, REDIS_URL, uniqueName } from "./support/scale-env.js";

const prefix = uniqueName("tail");
// A name of our own: the test finds the tail's subscriber connection by it (CLIENT LIST).
const connectionName = uniqueName("tailconn");
const redis = withScripts(new Redis(REDIS_URL, { connectionName, maxRetriesPerRequest: null }));
const errors: unknown[] = [];
const tail = new EventTail(redis, 1, (error) => errors.push(error));
afterAll(async () => {
  await tail.close();
  redis.disconnect();
  await dropRedisPrefix(prefix);
});

const limits = { streamMaxLen: 1000, streamMaxAgeMs: 60_000 };

function conversation() {
  const id = crypto.randomUUID();
  const keys = conversationKeys(prefix, id);
  const log = new EventLog(0, { maxEvents: 1000, maxChars: 1e9 });
  const emitter = new TurnEmitter(
    redis,
    keys,
    "",
    0,
    limits,
    () => undefined,
    () => undefined,
  );
  return { id, keys, log, emitter };
}

/** The ids and texts the log holds, in order (each frame once). */
function frames(log: EventLog): Array<[number, string]> {
  const read = log.readAfter(log.baseId);
  if (read.kind !== "frames") return [];
  return [...read.text.matchAll(/^id: (\d+)\nevent: \S+\ndata: (.*)$/gm)].map((m) => [
    Number(m[1]),
    JSON.parse(m[2]!).n as string,
  ]);
}

async function reaches(log: EventLog, id: number): Promise<void> {
  const deadline = Date.now() + 5000;
  while (log.lastId < id && Date.now() < deadline)
    await Promise.race([log.waitAfter(log.lastId), new Promise((r) => setTimeout(r, 50))]);
  expect(log.lastId).toBe(id);
}

describe("EventTail (streams followed through their pub/sub messages, the stream read on a gap)", () => {
  it("reads what the stream held before watching, then follows its messages: every id once, in order", async () => {
    const c = conversation();
    for (const n of ["a", "b", "c"]) await c.emitter.emit("e", { n });
    await tail.watch(c.id, c.keys.events, c.log);
    expect(frames(c.log)).toEqual([
      [1, "a"],
      [2, "b"],
      [3, "c"],
    ]);
    await Promise.all(["d", "e", "f"].map((n) => c.emitter.emit("e", { n })));
    await reaches(c.log, 6);
    expect(frames(c.log)).toEqual([
      [1, "a"],
      [2, "b"],
      [3, "c"],
      [4, "d"],
      [5, "e"],
      [6, "f"],
    ]);
    tail.unwatch(c.id);
  });

  it("an event whose predecessors never came as messages makes it read them from the stream", async () => {
    const c = conversation();
    await tail.watch(c.id, c.keys.events, c.log);
    // Entries 1 and 2 reach the stream without a message (as if lost while a connection was down).
    await redis.xadd(c.keys.events, "1-0", "t", "e", "d", JSON.stringify({ n: "x" }));
    await redis.xadd(c.keys.events, "2-0", "t", "e", "d", JSON.stringify({ n: "y" }));
    await redis.set(c.keys.seq, "2");
    await c.emitter.emit("e", { n: "z" });
    await reaches(c.log, 3);
    expect(frames(c.log)).toEqual([
      [1, "x"],
      [2, "y"],
      [3, "z"],
    ]);
    tail.unwatch(c.id);
  });

  it("after its connection dropped it subscribes again and reads what was written meanwhile", async () => {
    const c = conversation();
    await tail.watch(c.id, c.keys.events, c.log);
    await c.emitter.emit("e", { n: "before" });
    await reaches(c.log, 1);
    const list = (await redis.client("LIST")) as string;
    const subscriber = list
      .split("\n")
      .find((line) => line.includes(`name=${connectionName}`) && / sub=[1-9]/.test(line));
    expect(subscriber).toBeDefined();
    await redis.client("KILL", "ID", /id=(\d+)/.exec(subscriber!)![1]!);
    for (const n of ["while", "down"]) await c.emitter.emit("e", { n });
    await reaches(c.log, 3);
    await c.emitter.emit("e", { n: "after" });
    await reaches(c.log, 4);
    expect(frames(c.log)).toEqual([
      [1, "before"],
      [2, "while"],
      [3, "down"],
      [4, "after"],
    ]);
    tail.unwatch(c.id);
  });

  it("delivers this instance's own events at once and skips their messages; a conversation no longer watched gets nothing", async () => {
    const c = conversation();
    await tail.watch(c.id, c.keys.events, c.log);
    const local = new TurnEmitter(
      redis,
      c.keys,
      "",
      0,
      limits,
      () => undefined,
      () => undefined,
      (id, type, json) => tail.deliverLocal(c.id, id, type, json),
    );
    const id = await local.emit("e", { n: "mine" });
    expect(c.log.lastId).toBe(id); // before any message could arrive
    await new Promise((r) => setTimeout(r, 100));
    expect(frames(c.log)).toEqual([[1, "mine"]]);
    tail.unwatch(c.id);
    await c.emitter.emit("e", { n: "unseen" });
    await new Promise((r) => setTimeout(r, 100));
    expect(c.log.lastId).toBe(1);
    expect(errors).toEqual([]);
  });
});
