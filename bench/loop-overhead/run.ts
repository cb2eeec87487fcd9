import os from "node:os";
import { createBareSession } from "./bare-loop.js";
import { LENGTHS, makeHistory } from "./fixtures.js";
import { createGloveSession, type LoopSession } from "./glove-loop.js";
import { CALLS_PER_REQUEST, gcAvailable, measure, median, type MeasureOptions, type PerCall } from "./measure.js";

/** Flatness target: glove's per-call CPU at the longest conversation vs the shortest. */
const MAX_GROWTH = 1.5;

const env = (name: string, fallback: number) => Number(process.env[name] ?? fallback);
const REPS = env("BENCH_REPS", 7);
const SESSIONS = env("BENCH_SESSIONS", 200);
const REQUESTS = env("BENCH_REQUESTS", 2);
const opts: MeasureOptions = {
  sessions: SESSIONS,
  requestsPerSession: REQUESTS,
  gcBefore: process.env.BENCH_GC !== "0",
};

type LoopName = "glove" | "bare";
const loops: Record<LoopName, (history: ReturnType<typeof makeHistory>) => Promise<LoopSession>> = {
  glove: createGloveSession,
  bare: async (history) => createBareSession(history),
};

async function main(): Promise<void> {
  const histories = new Map(LENGTHS.map((L) => [L, makeHistory(L)] as const));
  const results = new Map<string, PerCall[]>();
  const key = (loop: LoopName, L: number) => `${loop}@${L}`;

  // Warm-up: JIT both loops at every length; results discarded.
  for (const L of LENGTHS) {
    for (const loop of ["glove", "bare"] as const) {
      await measure(() => loops[loop](histories.get(L)!), { ...opts, sessions: Math.ceil(SESSIONS / 2) });
    }
  }
  // Repetitions interleave lengths and loops so machine noise spreads over all cells.
  for (let rep = 0; rep < REPS; rep++) {
    for (const L of LENGTHS) {
      for (const loop of ["glove", "bare"] as const) {
        const r = await measure(() => loops[loop](histories.get(L)!), opts);
        const list = results.get(key(loop, L)) ?? [];
        list.push(r);
        results.set(key(loop, L), list);
      }
    }
  }

  const med = (loop: LoopName, L: number, field: keyof PerCall) =>
    median(results.get(key(loop, L))!.map((r) => r[field]));
  const fmt = (n: number, digits = 1) => n.toFixed(digits);
  const base = med("glove", LENGTHS[0], "cpuUs");
  const baseBare = med("bare", LENGTHS[0], "cpuUs");
  const rows = LENGTHS.map((L) => {
    const g = med("glove", L, "cpuUs");
    const b = med("bare", L, "cpuUs");
    return {
      L,
      msgs: histories.get(L)!.length,
      glove: g,
      bare: b,
      ratio: g / b,
      growth: g / base,
      bareGrowth: b / baseBare,
      gloveWall: med("glove", L, "wallUs"),
      bareWall: med("bare", L, "wallUs"),
    };
  });

  const timedCalls = SESSIONS * REQUESTS * CALLS_PER_REQUEST;
  const gcOn = opts.gcBefore && gcAvailable;
  console.log(
    `loop-overhead: node ${process.version}, ${os.availableParallelism()} CPUs, ${REPS} reps (median shown), ` +
      `${timedCalls} timed model calls per cell (${SESSIONS} fresh sessions × ${REQUESTS} requests × ${CALLS_PER_REQUEST} calls), ` +
      `full GC before each timed region: ${gcOn ? "yes" : "no"}`,
  );
  console.log("");
  console.log(
    "| L (history) | glove CPU µs/call | bare CPU µs/call | glove/bare | glove growth vs L=10 | bare growth vs L=10 | glove wall µs/call | bare wall µs/call |",
  );
  console.log("|---:|---:|---:|---:|---:|---:|---:|---:|");
  for (const r of rows) {
    console.log(
      `| ${r.L} (${r.msgs}) | ${fmt(r.glove)} | ${fmt(r.bare)} | ${fmt(r.ratio, 2)}× | ${fmt(r.growth, 2)}× | ${fmt(r.bareGrowth, 2)}× | ${fmt(r.gloveWall)} | ${fmt(r.bareWall)} |`,
    );
  }
  console.log("");
  const worst = Math.max(...rows.map((r) => r.growth));
  const pass = worst <= MAX_GROWTH;
  console.log(
    `Glove per-call CPU growth from L=${LENGTHS[0]} to L=${LENGTHS[LENGTHS.length - 1]}: ${fmt(rows[rows.length - 1]!.growth, 2)}× (max over lengths ${fmt(worst, 2)}×, target ≤ ${MAX_GROWTH}×)`,
  );
  console.log(pass ? "PASS" : "FAIL");
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
