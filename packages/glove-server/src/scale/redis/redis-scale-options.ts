import { ConfigurationError } from "glove-core";
import type { RedisOptions } from "ioredis";

/** Options of `redisScale`: where Redis is and how turns and event streams behave. */
export interface RedisScaleOptions {
  /** A `redis://` URL or ioredis options (host, port, password, tls…). */
  redis: string | RedisOptions;
  /** Prefix of every Redis key and of the job queue's keys; give each app (and test run) its own. Default "glove". */
  prefix?: string;
  /** The BullMQ queue turns are dispatched on. Default "glove-turns". */
  queueName?: string;
  /** Events kept per conversation stream (approximate trim, MAXLEN ~). Default 10 000. */
  streamMaxLen?: number;
  /** A conversation's stream is deleted this long after its last turn started or ended. Default 24 h. */
  streamMaxAgeMs?: number;
  /** Turns one instance runs at the same time. Default 200. */
  concurrency?: number;
  /**
   * How long a silent worker keeps its turns: a worker killed mid-turn is noticed after about
   * this (and up to twice this) and its turns continue on another instance. Default 30 000 ms.
   */
  turnLockMs?: number;
  /** Redis connections per instance that follow event streams (pub/sub; each follows many). Default 2. */
  tailConnections?: number;
  /**
   * How long an instance that stopped answering keeps its conversations: a dead owner's
   * conversations are taken over by another instance after about this (at most twice it). Default 10 000 ms.
   */
  leaseMs?: number;
}

export interface ResolvedRedisScale {
  connection: RedisOptions;
  url: string | undefined;
  prefix: string;
  queueName: string;
  streamMaxLen: number;
  streamMaxAgeMs: number;
  concurrency: number;
  turnLockMs: number;
  tailConnections: number;
  leaseMs: number;
}

function positive(name: string, value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== "number" || !Number.isFinite(value) || value <= 0) {
    throw new ConfigurationError(`redisScale: ${name} must be a positive number, got ${JSON.stringify(value)}.`);
  }
  return Math.floor(value);
}

export function resolveRedisScale(options: RedisScaleOptions): ResolvedRedisScale {
  const redis = options?.redis;
  const isUrl = typeof redis === "string";
  if (isUrl ? !/^rediss?:\/\//.test(redis) : typeof redis !== "object" || redis === null) {
    throw new ConfigurationError(
      `redisScale needs redis: "redis://host:6379" or ioredis options, got ${JSON.stringify(redis)}.`,
    );
  }
  const prefix = options.prefix ?? "glove";
  if (!/^[A-Za-z0-9_.-]{1,64}$/.test(prefix)) {
    throw new ConfigurationError(
      `redisScale: prefix must be 1-64 letters, digits, "_", "-" or ".", got ${JSON.stringify(prefix)}.`,
    );
  }
  const queueName = options.queueName ?? "glove-turns";
  if (!/^[A-Za-z0-9_.-]{1,64}$/.test(queueName)) {
    throw new ConfigurationError(
      `redisScale: queueName must be 1-64 letters, digits, "_", "-" or ".", got ${JSON.stringify(queueName)}.`,
    );
  }
  return {
    connection: isUrl ? {} : { ...redis },
    url: isUrl ? redis : undefined,
    prefix,
    queueName,
    streamMaxLen: positive("streamMaxLen", options.streamMaxLen, 10_000),
    streamMaxAgeMs: positive("streamMaxAgeMs", options.streamMaxAgeMs, 24 * 3600_000),
    concurrency: positive("concurrency", options.concurrency, 200),
    turnLockMs: positive("turnLockMs", options.turnLockMs, 30_000),
    tailConnections: positive("tailConnections", options.tailConnections, 2),
    leaseMs: positive("leaseMs", options.leaseMs, 10_000),
  };
}
