/**
 * Heap held per live idle conversation on a peer: K conversations, one message each, then a full
 * GC. glove-server hibernates a conversation nobody reads once its replay window has passed
 * (decision 0033), so the reading waits that long first (`settleMs`): the figure is what a
 * server with default options holds. Then the cost of waking: one message to M sleeping
 * conversations, then one more to the same (now awake) ones, server CPU and wall time each.
 */
import { BenchClient, pool, within } from "../client.js";
import type { Target } from "../targets.js";
import { AiSdkClient } from "./aisdk-client.js";
import { MESSAGE } from "./peer-round.js";

/** glove-server's default `events.replayWindowMs`, plus one sweep (half the window) and a margin. */
export const HIBERNATE_SETTLE_MS = 30_000 + 15_000 + 2_000;

export interface WakeCost {
  /** Messages measured in each set. */
  messages: number;
  /** Median server CPU µs and wall ms per message to a hibernating conversation… */
  asleepCpuUs: number;
  asleepWallMs: number;
  /** …and to the same conversation right after (awake). */
  awakeCpuUs: number;
  awakeWallMs: number;
}

export interface PeerMemory {
  conversations: number;
  heapBefore: number;
  heapAfter: number;
  /** (after − before) / K, bytes. */
  heapPerConversation: number;
  live: number;
  wake?: WakeCost;
}

export interface PeerMemoryOptions {
  warmup?: number;
  /** How long to wait after the last message before the reading. Default 200 ms. */
  settleMs?: number;
  /** Conversations to measure waking on (glove-server only; 0 skips it). Default 0. */
  wake?: number;
}

async function oneConversation(target: Target, client: BenchClient, chat: AiSdkClient, ids: string[]): Promise<void> {
  const id = await client.createConversation("chat");
  ids.push(id);
  if (target.kind === "aisdk-peer") {
    await chat.chat(id, MESSAGE);
    return;
  }
  await oneMessage(client, id);
}

async function oneMessage(client: BenchClient, id: string): Promise<void> {
  const stream = client.openStream(id);
  await within(stream.snapshot, 60_000, "memory: snapshot");
  await client.postMessage(id, MESSAGE);
  await within(stream.turnEnd, 60_000, "memory: turn_end");
  stream.close();
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;

/** One message at a time, each timed on its own: server CPU and wall time. */
async function timedMessages(
  target: Target,
  client: BenchClient,
  ids: string[],
): Promise<{ cpuUs: number; wallMs: number }> {
  const cpu: number[] = [];
  const wall: number[] = [];
  for (const id of ids) {
    const before = await target.stats();
    const t0 = performance.now();
    await oneMessage(client, id);
    wall.push(performance.now() - t0);
    cpu.push((await target.stats()).cpuUs - before.cpuUs);
  }
  return { cpuUs: median(cpu), wallMs: median(wall) };
}

export async function peerMemory(
  target: Target,
  conversations: number,
  options: PeerMemoryOptions = {},
): Promise<PeerMemory> {
  const client = new BenchClient(target.url);
  const chat = new AiSdkClient(target.url);
  try {
    await pool(Array.from({ length: options.warmup ?? 50 }), 25, () => oneConversation(target, client, chat, []));
    // The warm-up's conversations go to sleep too before the baseline reading.
    await new Promise((resolve) => setTimeout(resolve, options.settleMs ?? 200));
    const before = await target.collect();
    const ids: string[] = [];
    await pool(Array.from({ length: conversations }), 25, () => oneConversation(target, client, chat, ids));
    // Closed streams leave the server on their own schedule; hibernation waits for the replay window.
    await new Promise((resolve) => setTimeout(resolve, options.settleMs ?? 200));
    const after = await target.collect();
    const result: PeerMemory = {
      conversations,
      heapBefore: before.heapUsed,
      heapAfter: after.heapUsed,
      heapPerConversation: (after.heapUsed - before.heapUsed) / conversations,
      live: after.live,
    };
    const wake = Math.min(options.wake ?? 0, ids.length);
    if (wake > 0 && target.kind !== "aisdk-peer") {
      const sample = ids.slice(0, wake);
      const asleep = await timedMessages(target, client, sample);
      const awake = await timedMessages(target, client, sample);
      result.wake = {
        messages: wake,
        asleepCpuUs: asleep.cpuUs,
        asleepWallMs: asleep.wallMs,
        awakeCpuUs: awake.cpuUs,
        awakeWallMs: awake.wallMs,
      };
    }
    return result;
  } finally {
    client.close();
    chat.close();
  }
}
