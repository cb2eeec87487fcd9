/**
 * What the in-process scale tests share: a PostgreSQL schema and Redis prefix of their own
 * (dropped after the file), a scripted test Glove, and the few HTTP calls they make.
 */
import { afterAll } from "vitest";
import { Redis } from "ioredis";
import pg from "pg";
import { Displaymanager, Glove, type Message, type ModelAdapter, type StoreAdapter } from "glove-core";
import { createGloveServer, type AgentFactory, type GloveServer, type GloveServerOptions } from "glove-server";
import { postgresStorage } from "glove-server/postgres";
import { redisScale } from "glove-server/redis";
import { ownerScale } from "../../../src/scale/owner/owner-scale.js";
import { dropRedisPrefix, PG_URL, REDIS_URL, uniqueName } from "./scale-env.js";

/** A schema, a prefix, a pool and a Redis client for one test file; removed after it. */
export function inProcessScaleEnv(name: string) {
  const env = {
    schema: uniqueName(name),
    prefix: uniqueName(name),
    pool: new pg.Pool({ connectionString: PG_URL, max: 5 }),
    redis: new Redis(REDIS_URL),
  };
  afterAll(async () => {
    env.redis.disconnect();
    await env.pool.query(`DROP SCHEMA IF EXISTS ${env.schema} CASCADE`);
    await env.pool.end();
    await dropRedisPrefix(env.prefix);
  });
  return env;
}

/** The tests' agent: a Glove on `model` with a throwaway prompt. */
export function testGlove(store: StoreAdapter, model: ModelAdapter): Glove {
  return new Glove({
    store,
    model,
    displayManager: new Displaymanager(),
    systemPrompt: "t",
    compaction_config: { compaction_instructions: "S." },
  });
}

type Env = ReturnType<typeof inProcessScaleEnv>;

/** A scale-mode server on the file's schema and prefix, with one agent `assistant`. */
export function scaledServer(
  env: Env,
  assistant: AgentFactory,
  options: { turnLockMs?: number; store?: GloveServerOptions["store"]; idleTimeoutMs?: number } = {},
): GloveServer {
  return createGloveServer({
    authenticate: () => ({ id: "ada" }),
    store: options.store ?? postgresStorage({ pool: env.pool, schema: env.schema }),
    scale: scaleMode(env.prefix, options.turnLockMs ?? 2000),
    agents: { assistant },
    ...(options.idleTimeoutMs !== undefined ? { idleTimeoutMs: options.idleTimeoutMs } : {}),
  });
}

/**
 * The scale mode the in-process tests run: BullMQ jobs, or with GLOVE_SCALE_ENGINE=owner the one
 * engine (owner-host.ts; imported from the sources, its type declared twice: hence the cast).
 */
export function scaleMode(prefix: string, lockMs: number): GloveServerOptions["scale"] {
  return process.env.GLOVE_SCALE_ENGINE === "owner"
    ? (ownerScale({ redis: REDIS_URL, prefix, leaseMs: lockMs }) as unknown as GloveServerOptions["scale"])
    : redisScale({ redis: REDIS_URL, prefix, turnLockMs: lockMs });
}

const JSON_HEADERS = { "content-type": "application/json" };

/** Creates a conversation and returns its id. */
export async function createConversation(url: string): Promise<string> {
  return (
    (await (await fetch(`${url}/conversations`, { method: "POST", headers: JSON_HEADERS, body: "{}" })).json()) as {
      id: string;
    }
  ).id;
}

/** Posts a message to a conversation. */
export function postMessage(url: string, id: string, text: string): Promise<Response> {
  return fetch(`${url}/conversations/${id}/messages`, {
    method: "POST",
    headers: JSON_HEADERS,
    body: JSON.stringify({ text }),
  });
}

/** The conversation's stored history, as its snapshot route gives it. */
export async function historyOf(url: string, id: string): Promise<Message[]> {
  return ((await (await fetch(`${url}/conversations/${id}`)).json()) as { messages: Message[] }).messages;
}
