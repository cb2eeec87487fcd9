import { Redis } from "ioredis";
import pg from "pg";

export const PG_URL = process.env.GLOVE_PG_URL ?? "postgres://postgres@127.0.0.1:5432/test";
export const REDIS_URL = process.env.GLOVE_REDIS_URL ?? "redis://127.0.0.1:6379";

/** A name no parallel test file uses: a Redis key prefix or a PostgreSQL schema. */
export function uniqueName(kind: string): string {
  return `gs_${kind}_${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
}

/** Deletes every Redis key under `prefix` (the scale mode's keys and its BullMQ queue). */
export async function dropRedisPrefix(prefix: string, url = REDIS_URL): Promise<void> {
  const redis = new Redis(url, { maxRetriesPerRequest: 3 });
  try {
    let cursor = "0";
    do {
      const [next, keys] = await redis.scan(cursor, "MATCH", `${prefix}:*`, "COUNT", 1000);
      cursor = next;
      if (keys.length) await redis.del(...keys);
    } while (cursor !== "0");
  } finally {
    redis.disconnect();
  }
}

export async function dropSchema(schema: string): Promise<void> {
  const pool = new pg.Pool({ connectionString: PG_URL, max: 1 });
  try {
    await pool.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
  } finally {
    await pool.end();
  }
}
