import { afterAll, describe, expect, it } from "vitest";
import { Redis } from "ioredis";
import { conversationKeys } from "../../src/scale/redis/keys.js";
import { withScripts } from "../../src/scale/redis/scripts.js";
import { TurnEmitter } from "../../src/scale/redis/turn-emitter.js";
import { dropRedisPrefix, REDIS_URL, uniqueName } from "./support/scale-env.js";

const prefix = uniqueName("emit");
const redis = withScripts(new Redis(REDIS_URL));
afterAll(async () => {
  redis.disconnect();
  await dropRedisPrefix(prefix);
});

const limits = { streamMaxLen: 1000, streamMaxAgeMs: 60_000 };

describe("the emit script (one event = counter, stream entry and state in one step)", () => {
  it("numbers events from the catalog's base, makes the entry id the event id, and keeps state consistent with `last`", async () => {
    const keys = conversationKeys(prefix, crypto.randomUUID());
    const emitter = new TurnEmitter(
      redis,
      keys,
      "",
      500,
      limits,
      () => undefined,
      () => undefined,
    );
    expect(await emitter.emit("turn_start", { turnId: "t" }, ["t"])).toBe(501);
    expect(await emitter.emit("text_delta", { text: "Hel" }, ["Hel"])).toBe(502);
    expect(await emitter.emit("text_delta", { text: "lo" }, ["lo"])).toBe(503);
    expect(await redis.get(keys.streaming)).toBe("Hello");
    expect(await redis.hget(keys.state, "last")).toBe("503");
    await emitter.emit("model_response_complete", { text: "Hello" });
    await emitter.emit("messages_appended", { messages: [], startIndex: 0 }, ["2"]);
    expect(await redis.get(keys.streaming)).toBeNull();
    expect(await redis.hget(keys.state, "messageCount")).toBe("2");
    const entries = await redis.xrange(keys.events, "-", "+");
    expect(entries.map(([id]) => id)).toEqual(["501-0", "502-0", "503-0", "504-0", "505-0"]);
    expect(entries[1]![1]).toEqual(["t", "text_delta", "d", '{"text":"Hel"}']);
  });

  it("refuses a fenced worker's events and ignores a resent command", async () => {
    const keys = conversationKeys(prefix, crypto.randomUUID());
    await redis.set(keys.run, "token-a");
    let fenced = 0;
    const a = new TurnEmitter(
      redis,
      keys,
      "token-a",
      0,
      limits,
      () => fenced++,
      () => undefined,
    );
    expect(await a.emit("text_delta", { text: "x" }, ["x"])).toBe(1);
    // The same command again (ioredis resends unanswered commands after a reconnect): a no-op.
    const resent = await redis.gloveEmit(
      keys.seq,
      keys.events,
      keys.state,
      keys.run,
      keys.streaming,
      keys.slots,
      keys.slotStatus,
      keys.turn,
      "token-a",
      1,
      "text_delta",
      '{"text":"x"}',
      1000,
      0,
      60_000,
      "x",
      "",
      "",
    );
    expect(resent).toBe(0);
    expect(await redis.xlen(keys.events)).toBe(1);
    // Another worker took the turn over: a's events are refused, once noticed it stops.
    await redis.set(keys.run, "token-b");
    expect(await a.emit("text_delta", { text: "late" }, ["late"])).toBe(-1);
    expect(fenced).toBe(1);
    expect(await a.emit("text_delta", { text: "later" }, ["later"])).toBe(-1);
    expect(await redis.xlen(keys.events)).toBe(1);
    expect(await redis.get(keys.streaming)).toBe("x");
  });

  it("turn_end releases the conversation for the next turn in the same step", async () => {
    const keys = conversationKeys(prefix, crypto.randomUUID());
    await redis.set(keys.turn, "t1|0");
    await redis.set(keys.run, "tok");
    const emitter = new TurnEmitter(
      redis,
      keys,
      "tok",
      0,
      limits,
      () => undefined,
      () => undefined,
    );
    await emitter.emit("slot_push", { slot: {} }, ["s1", '{"id":"s1"}', "pending"]);
    await emitter.emit("turn_end", { turnId: "t1", status: "done" }, ["t1"]);
    expect(await redis.exists(keys.turn, keys.run, keys.slots, keys.slotStatus)).toBe(0);
  });

  it("a worker's turn_end (end()) clears its turn's abort flag and attempt count in the same step; a refused one leaves them", async () => {
    const keys = conversationKeys(prefix, crypto.randomUUID());
    await redis.set(keys.turn, "t1|0");
    await redis.set(keys.run, "tok");
    await redis.set(keys.abort, "t1");
    await redis.hset(keys.attempts, "t1", "2", "t0", "1");
    const stale = new TurnEmitter(
      redis,
      keys,
      "old-tok",
      0,
      limits,
      () => undefined,
      () => undefined,
    );
    expect(await stale.end({ turnId: "t1", status: "done" })).toBe(-1);
    expect(await redis.get(keys.abort)).toBe("t1");
    expect(await redis.hgetall(keys.attempts)).toEqual({ t1: "2", t0: "1" });
    const emitter = new TurnEmitter(
      redis,
      keys,
      "tok",
      0,
      limits,
      () => undefined,
      () => undefined,
    );
    expect(await emitter.end({ turnId: "t1", status: "waiting" })).toBe(1);
    expect(await redis.exists(keys.abort, keys.turn, keys.run)).toBe(0);
    // Only a turn that ended "done" marks that no stored question can wait (the refused one did not either).
    expect(await redis.hget(keys.state, "noWaits")).toBeNull();
    expect(await redis.hgetall(keys.attempts)).toEqual({ t0: "1" }); // another turn's count stays
    // An abort asked for a later turn is not this turn's to clear.
    await redis.set(keys.abort, "t2");
    await redis.set(keys.run, "tok2");
    expect(
      await new TurnEmitter(
        redis,
        keys,
        "tok2",
        0,
        limits,
        () => undefined,
        () => undefined,
      ).end({ turnId: "t1", status: "done" }),
    ).toBe(2);
    expect(await redis.get(keys.abort)).toBe("t2");
    expect(await redis.hget(keys.state, "noWaits")).toBe("1");
    // The next claim takes the mark with it.
    expect(
      await redis.gloveClaimTurn(keys.turn, keys.clientMessage(""), keys.state, "t3", "0", 60, Date.now()),
    ).toEqual(["ok", "t3", 1]);
    expect(await redis.hget(keys.state, "noWaits")).toBeNull();
  });
});
