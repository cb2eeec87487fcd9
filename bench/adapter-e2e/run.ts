/**
 * adapter-e2e: CPU per model call of the Glove loop driving the OpenAI-compatible
 * adapter over HTTP (its default transport, and again given `fetch`), next to a bare fetch + SSE
 * loop, against the same fake server (in a child process, so only the client side is measured).
 */
import { spawn } from "node:child_process";
import { once } from "node:events";
import os from "node:os";
import { fileURLToPath } from "node:url";
import { createBareSession } from "./bare-loop.js";
import { TOOL_TURNS } from "./fake-openai.js";
import { createGloveSession, type E2ESession } from "./glove-loop.js";

// Issue 24: at or under the raw-fetch floor (decision 0035; it was 1.2× in decision 0007).
const TARGET = 1.0;
const env = (name: string, fallback: number) => Number(process.env[name] ?? fallback);
const REPS = env("BENCH_REPS", 7);
const REQUESTS = env("BENCH_REQUESTS", 50);
const CALLS_PER_REQUEST = TOOL_TURNS + 1;
const gc = (globalThis as { gc?: () => void }).gc;

type LoopName = "glove" | "glove-fetch" | "bare";
const loops: Record<LoopName, (url: string) => E2ESession> = {
  glove: (url) => createGloveSession(url),
  "glove-fetch": (url) => createGloveSession(url, true),
  bare: createBareSession,
};
const NAMES: LoopName[] = ["glove", "glove-fetch", "bare"];

interface Sample {
  cpuUs: number;
  wallUs: number;
  /** CPU per call over the first and the last 10 requests (conversation growth). */
  firstCpuUs: number;
  lastCpuUs: number;
}

async function runSession(loop: LoopName, url: string): Promise<Sample> {
  const session = loops[loop](url);
  if (process.env.BENCH_GC !== "0") gc?.();
  const window = Math.min(10, REQUESTS);
  let first = 0;
  let last = 0;
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  for (let r = 0; r < REQUESTS; r++) {
    const before = process.cpuUsage();
    await session.request();
    const used = process.cpuUsage(before);
    if (r < window) first += used.user + used.system;
    if (r >= REQUESTS - window) last += used.user + used.system;
  }
  const wall = performance.now() - t0;
  const used = process.cpuUsage(c0);
  const calls = REQUESTS * CALLS_PER_REQUEST;
  return {
    cpuUs: (used.user + used.system) / calls,
    wallUs: (wall * 1000) / calls,
    firstCpuUs: first / (window * CALLS_PER_REQUEST),
    lastCpuUs: last / (window * CALLS_PER_REQUEST),
  };
}

function median(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

async function main(): Promise<void> {
  const serverFile = fileURLToPath(new URL("./server-main.js", import.meta.url));
  const child = spawn(process.execPath, [serverFile], { stdio: ["ignore", "pipe", "inherit"] });
  const [line] = (await once(child.stdout!, "data")) as [Buffer];
  const url = line.toString().trim();
  try {
    // Warm-up: one full session of each loop, discarded.
    for (const loop of NAMES) await runSession(loop, url);
    const samples: Record<LoopName, Sample[]> = { glove: [], "glove-fetch": [], bare: [] };
    for (let rep = 0; rep < REPS; rep++) {
      // Rotate which loop goes first, so none always runs on a warmer (or busier) machine.
      const order = NAMES.map((_, i) => NAMES[(i + rep) % NAMES.length]!);
      for (const loop of order) samples[loop].push(await runSession(loop, url));
    }
    const med = (loop: LoopName, field: keyof Sample) => median(samples[loop].map((s) => s[field]));
    const g = med("glove", "cpuUs");
    const b = med("bare", "cpuUs");
    const ratio = g / b;
    const f = (n: number) => n.toFixed(1);
    const messages = REQUESTS * (2 + 2 * TOOL_TURNS);
    console.log(
      `adapter-e2e — Node ${process.version}, ${os.cpus().length} CPUs, load ${os
        .loadavg()
        .map((n) => n.toFixed(2))
        .join(" ")}`,
    );
    console.log(
      `${REQUESTS} requests × ${TOOL_TURNS} tool turns (+1 text turn) = ${REQUESTS * CALLS_PER_REQUEST} model calls per session; conversation grows to ${messages} messages; ${REPS} reps (median).`,
    );
    console.log("");
    console.log("| loop | CPU µs/call | wall µs/call | CPU µs/call, requests 1–10 | CPU µs/call, last 10 |");
    console.log("|---|---:|---:|---:|---:|");
    for (const loop of NAMES) {
      console.log(
        `| ${loop} | ${f(med(loop, "cpuUs"))} | ${f(med(loop, "wallUs"))} | ${f(med(loop, "firstCpuUs"))} | ${f(med(loop, "lastCpuUs"))} |`,
      );
    }
    console.log("");
    console.log(`glove/bare CPU: ${ratio.toFixed(2)}× (target ≤ ${TARGET}×) → ${ratio <= TARGET ? "PASS" : "FAIL"}`);
    console.log(
      `per-rep ratios: ${samples.glove.map((s, i) => (s.cpuUs / samples.bare[i]!.cpuUs).toFixed(2)).join(" ")}`,
    );
    const gf = med("glove-fetch", "cpuUs");
    console.log(
      `glove-fetch/bare CPU: ${(gf / b).toFixed(2)}× (the adapter given \`fetch\`: the transport before decision 0035); glove/glove-fetch: ${(g / gf).toFixed(2)}×`,
    );
    console.log(
      `per-rep glove-fetch/bare: ${samples["glove-fetch"].map((s, i) => (s.cpuUs / samples.bare[i]!.cpuUs).toFixed(2)).join(" ")}`,
    );
  } finally {
    child.kill();
  }
}

await main();
