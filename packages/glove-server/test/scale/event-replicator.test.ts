import { afterAll, describe, expect, it } from "vitest";
import { Redis } from "ioredis";
import { EventReplicator } from "../../src/scale/owner/event-replicator.js";
import { dropRedisPrefix, REDIS_URL, uniqueName } from "./support/scale-env.js";

const prefix = uniqueName("replicator");
const redis = new Redis(REDIS_URL);
afterAll(async () => {
  redis.disconnect();
  await dropRedisPrefix(prefix);
});

const keys = (id: string) => ({ ownerKey: `${prefix}:{${id}}:owner`, streamKey: `${prefix}:{${id}}:events` });

/** The replicator, with its script calls counted and `reclaim` answering from `owned`. */
function replicator(owned: Set<string>) {
  const counted = { calls: 0, reclaimed: [] as string[] };
  const replicate = new EventReplicator(
    redis,
    "me",
    { maxLen: 1000, maxAgeMs: 60_000 },
    keys,
    async (id) => {
      counted.reclaimed.push(id);
      if (!owned.has(id)) return false;
      await redis.set(keys(id).ownerKey, "me");
      return true;
    },
    (error) => {
      throw error;
    },
  );
  const scripted = redis as unknown as { gloveReplicate: (...args: unknown[]) => Promise<number[]> };
  const original = scripted.gloveReplicate.bind(redis);
  scripted.gloveReplicate = (...args) => (counted.calls++, original(...args));
  return { replicate, counted };
}

const ids = async (id: string) =>
  ((await redis.xrange(keys(id).streamKey, "-", "+")) as Array<[string, string[]]>).map(([entry, fields]) => [
    Number(entry.split("-")[0]),
    fields[fields.indexOf("t") + 1],
  ]);

describe("EventReplicator (the owner engine's events to Redis)", () => {
  it("sends the events of every conversation of an event-loop turn in one call, only those it owns", async () => {
    await redis.set(keys("a").ownerKey, "me");
    await redis.set(keys("b").ownerKey, "me");
    await redis.set(keys("c").ownerKey, "someone-else");
    const { replicate, counted } = replicator(new Set(["a", "b"]));
    replicate.push("a", 1, "turn_start", "{}");
    replicate.push("b", 1, "turn_start", "{}");
    replicate.push("a", 2, "text_delta", '{"text":"hi"}');
    replicate.push("c", 1, "turn_start", "{}");
    await Promise.all(["a", "b", "c"].map((id) => replicate.flushed(id)));
    expect(counted.calls).toBe(1);
    expect(await ids("a")).toEqual([
      [1, "turn_start"],
      [2, "text_delta"],
    ]);
    expect(await ids("b")).toEqual([[1, "turn_start"]]);
    // Another instance owns c: nothing of it written, and it is not taken back.
    expect(await ids("c")).toEqual([]);
    expect(counted.reclaimed).toEqual(["c"]);
  });

  it("events refused because Redis lost the owner key go again once owned, before newer ones", async () => {
    const { replicate, counted } = replicator(new Set(["d"]));
    // No owner key (a Redis that restarted without its data): refused, reclaimed, sent again.
    replicate.push("d", 7, "turn_start", "{}");
    replicate.push("d", 8, "text_delta", "{}");
    await new Promise((resolve) => setImmediate(resolve));
    replicate.push("d", 9, "turn_end", "{}"); // pushed while the first call is on its way
    await replicate.flushed("d");
    expect(counted.reclaimed).toEqual(["d"]);
    expect(await ids("d")).toEqual([
      [7, "turn_start"],
      [8, "text_delta"],
      [9, "turn_end"],
    ]);
  });

  it("a new owner's first event names the id the stream had last (a marked jump)", async () => {
    await redis.set(keys("e").ownerKey, "me");
    const { replicate } = replicator(new Set(["e"]));
    replicate.continueAfter("e", 41);
    replicate.push("e", 20001, "turn_resumed", "{}");
    replicate.push("e", 20002, "text_delta", "{}");
    await replicate.flushed("e");
    const entries = (await redis.xrange(keys("e").streamKey, "-", "+")) as Array<[string, string[]]>;
    expect(
      entries.map(([entry, fields]) => [entry, fields.includes("p") ? fields[fields.indexOf("p") + 1] : null]),
    ).toEqual([
      ["20001-0", "41"],
      ["20002-0", null],
    ]);
  });
});
