/**
 * server: glove-server streaming a scripted turn to N concurrent SSE clients, next to a bare
 * node:http SSE loop writing the same frames; both servers in child processes, so the figures
 * are the server's CPU only. Then memory per idle conversation, held and after eviction.
 */
import { mkdirSync } from "node:fs";
import os from "node:os";
import { memoryRun, streamingBench, type MemoryResult } from "./bench.js";
import { env } from "./fixtures.js";
import { memoryTable, streamingTable, verdict } from "./report.js";
import { spawnTarget } from "./targets.js";

const SIZES = (process.env.BENCH_SIZES ?? "10,100,1000")
  .split(",")
  .map(Number)
  .filter((n) => n > 0);
const REPS = env("BENCH_REPS", 5);
const WORDS = env("BENCH_WORDS", 200);
const CHUNK = env("BENCH_CHUNK", 4);
const DELAY_MS = env("BENCH_DELAY_MS", 0);
const STORAGE = process.env.BENCH_STORAGE === "sqlite" ? "sqlite" : "memory";
const IDLE = env("BENCH_IDLE", 2000);
/** Between the bare server's batches: "immediate" (default), "microtask", or the model's pace when BENCH_DELAY_MS > 0. */
const YIELD: "immediate" | "microtask" | number =
  process.env.BENCH_YIELD === "microtask"
    ? "microtask"
    : process.env.BENCH_YIELD === "immediate" || DELAY_MS === 0
      ? "immediate"
      : DELAY_MS;
const BATCH =
  process.env.BENCH_BATCH === undefined || process.env.BENCH_BATCH === "match"
    ? "match"
    : Number(process.env.BENCH_BATCH);
/** A folder: write a CPU profile of one extra glove-server round per N there. */
const PROFILE = process.env.BENCH_PROFILE;
const log = (line = "") => console.log(line);

async function streaming(): Promise<void> {
  const glove = await spawnTarget("glove", {
    glove: { words: WORDS, chunkSize: CHUNK, delayMs: DELAY_MS, storage: STORAGE },
  });
  const bare = await spawnTarget("bare", { bare: { events: [], batch: 1, yield: YIELD } });
  try {
    const { turn, cells } = await streamingBench(glove, bare, {
      sizes: SIZES,
      reps: REPS,
      batch: BATCH,
      log,
      ...(PROFILE ? { profileDir: PROFILE } : {}),
    });
    const chars = turn.reduce((sum, e) => sum + JSON.stringify(e.data).length, 0);
    log();
    log(
      `One turn: ${turn.length} events (${turn.filter((e) => e.type === "text_delta").length} text_delta of ≤ ${CHUNK} characters, ${WORDS} words; ${[...new Set(turn.map((e) => e.type))].join(", ")}), ${chars} characters of data.`,
    );
    log(
      `glove-server storage: ${STORAGE}; ScriptedModel delayMs ${DELAY_MS}; bare batch: ${BATCH}, yield: ${typeof YIELD === "number" ? `setTimeout(${YIELD})` : YIELD}; ${REPS} reps (median).`,
    );
    log();
    for (const line of streamingTable(cells)) log(line);
    log();
    log(verdict(cells));
    for (const c of cells) log(`  N=${c.conversations} per-rep ratios: ${c.ratios.map((r) => r.toFixed(2)).join(" ")}`);
  } finally {
    await glove.close();
    await bare.close();
  }
}

async function memory(): Promise<void> {
  const results: Array<{ label: string; result: MemoryResult }> = [];
  const held = await spawnTarget("glove", {
    glove: { storage: "sqlite", idleTimeoutMs: 3_600_000, maxLiveConversations: 1_000_000 },
  });
  try {
    results.push({ label: "held (idleTimeoutMs 1 h)", result: await memoryRun(held, { conversations: IDLE }) });
  } finally {
    await held.close();
  }
  const evicting = await spawnTarget("glove", {
    glove: { storage: "sqlite", idleTimeoutMs: 500, maxLiveConversations: 1_000_000 },
  });
  try {
    results.push({
      label: "after eviction (idleTimeoutMs 500)",
      result: await memoryRun(evicting, { conversations: IDLE, waitForEviction: true }),
    });
  } finally {
    await evicting.close();
  }
  const long = await spawnTarget("glove", {
    glove: {
      storage: "sqlite",
      words: WORDS,
      chunkSize: CHUNK,
      idleTimeoutMs: 3_600_000,
      maxLiveConversations: 1_000_000,
    },
  });
  try {
    const k = Math.min(IDLE, 1000);
    results.push({
      label: `held, ${WORDS}-word streamed turn (replay window kept)`,
      result: await memoryRun(long, { conversations: k, agent: "stream" }),
    });
  } finally {
    await long.close();
  }
  log();
  log(
    `Memory per idle conversation (SQLite storage; each: create, open the stream, one short turn, close the stream; full GC before each reading):`,
  );
  log();
  for (const line of memoryTable(results)) log(line);
}

if (PROFILE) mkdirSync(PROFILE, { recursive: true });
log(
  `server — Node ${process.version}, ${os.cpus().length} CPUs, load ${os
    .loadavg()
    .map((n) => n.toFixed(2))
    .join(" ")}`,
);
if (SIZES.length) await streaming();
if (IDLE > 0) await memory();
log();
log(
  `load after: ${os
    .loadavg()
    .map((n) => n.toFixed(2))
    .join(" ")}`,
);
