import type { Redis as RedisConnection, RedisOptions } from "ioredis";
import { Redis } from "./drivers.js";
import type { ResolvedRedisScale } from "./redis-scale-options.js";

/** Reconnects quickly and forever: a Redis restart is a pause, not an error. */
const CONNECTION: RedisOptions = {
  maxRetriesPerRequest: null,
  retryStrategy: (times) => Math.min(50 * times, 1000),
};

/** A connection of the scale mode to its Redis (`extra`: per-connection options, e.g. auto-pipelining). */
export function connectRedis(scale: ResolvedRedisScale, extra: RedisOptions = {}): RedisConnection {
  const options = { ...scale.connection, ...CONNECTION, ...extra };
  const redis = scale.url ? new Redis(scale.url, options) : new Redis(options);
  redis.on("error", () => undefined); // reconnects on its own; failing commands report themselves
  return redis;
}
