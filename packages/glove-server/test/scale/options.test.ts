import { describe, expect, it } from "vitest";
import { ConfigurationError } from "glove-core";
import { createGloveServer, memoryStorage } from "glove-server";
import { redisScale } from "glove-server/redis";

function errorOf(fn: () => unknown): unknown {
  try {
    fn();
  } catch (error) {
    return error;
  }
  return undefined;
}

describe("redisScale options", () => {
  it("refuses what cannot work with a ConfigurationError that says what to give", () => {
    for (const bad of [
      () => redisScale({ redis: "http://127.0.0.1:6379" }),
      () => redisScale({ redis: "redis://127.0.0.1:6379", prefix: "has spaces" }),
      () => redisScale({ redis: "redis://127.0.0.1:6379", turnLockMs: 0 }),
      () => redisScale({ redis: "redis://127.0.0.1:6379", queueName: "a:b" }),
      () => redisScale({ redis: "redis://127.0.0.1:6379", concurrency: Number.NaN }),
    ]) {
      const error = errorOf(bad);
      expect(ConfigurationError.isInstance(error)).toBe(true);
      expect((error as Error).message).toMatch(/^redisScale/);
    }
    expect(errorOf(() => redisScale({ redis: "redis://127.0.0.1:6379" }))).toBeUndefined();
    expect(errorOf(() => redisScale({ redis: { host: "127.0.0.1", port: 6379 } }))).toBeUndefined();
  });

  it('createGloveServer refuses busy: "queue" with scale (not supported yet) and a scale that is not one', () => {
    const base = {
      authenticate: () => ({ id: "a" }),
      store: memoryStorage(),
      agents: {
        a: () => {
          throw new Error("unused");
        },
      },
    };
    const queued = errorOf(() =>
      createGloveServer({ ...base, busy: "queue", scale: redisScale({ redis: "redis://127.0.0.1:6379" }) }),
    );
    expect(ConfigurationError.isInstance(queued)).toBe(true);
    expect((queued as Error).message).toMatch(/busy: "queue" is not supported with scale/);
    const bogus = errorOf(() => createGloveServer({ ...base, scale: { kind: "x" } as never }));
    expect(ConfigurationError.isInstance(bogus)).toBe(true);
  });
});
