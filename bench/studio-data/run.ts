import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { ServerStorage } from "glove-server";
import { postgresData } from "./catalog-postgres.js";
import { sqliteData } from "./catalog-sqlite.js";
import { medianMs, operations } from "./measure.js";
import { requestLogGrowth } from "./request-log.js";
import { traceOverhead } from "./trace-overhead.js";

/**
 * Glove Studio's reads on large data against a baseline measured in the same run: BENCH_CONVERSATIONS
 * (100 000) conversations and a BENCH_MESSAGES (10 000)-message conversation, versus 1 000 / 100,
 * on SQLite and PostgreSQL (BENCH_PG_URL, default the local test database; BENCH_PG=0 skips it).
 * A ratio near 1 means the read does not grow with the data. The last line is `RESULTS <json>`.
 */
const size = {
  conversations: Number(process.env.BENCH_CONVERSATIONS ?? 100_000),
  messages: Number(process.env.BENCH_MESSAGES ?? 10_000),
};
const baseline = { conversations: 1_000, messages: 100 };
const runs = Number(process.env.BENCH_RUNS ?? 30);
const traces = 200;
const pgUrl = process.env.BENCH_PG_URL ?? "postgres://postgres@127.0.0.1:5432/test";

type Open = (s: typeof size) => Promise<{ storage: ServerStorage; close(): Promise<void> }>;
const dir = mkdtempSync(join(tmpdir(), "glove-bench-studio-data-"));
const backends: Array<[string, Open]> = [["SQLite", (s) => sqliteData(dir, s.conversations, s.messages, traces)]];
if (process.env.BENCH_PG !== "0")
  backends.push(["PostgreSQL", (s) => postgresData(pgUrl, s.conversations, s.messages, traces)]);

const results: Array<{ backend: string; operation: string; baselineMs: number; largeMs: number; ratio: number }> = [];
for (const [backend, open] of backends) {
  const small = await open(baseline);
  const seedStart = performance.now();
  const large = await open(size);
  console.log(
    `${backend}: seeded ${size.conversations} conversations and ${size.messages} messages in ${((performance.now() - seedStart) / 1000).toFixed(1)} s`,
  );
  const smallOps = operations(baseline.messages);
  const largeOps = operations(size.messages);
  for (let k = 0; k < largeOps.length; k++) {
    // Alternated, so both sizes see the same machine load.
    const baselineMs = await medianMs(smallOps[k]!, small.storage.inspect!, runs);
    const largeMs = await medianMs(largeOps[k]!, large.storage.inspect!, runs);
    results.push({ backend, operation: largeOps[k]!.name, baselineMs, largeMs, ratio: largeMs / baselineMs });
  }
  await small.close();
  await large.close();
}
rmSync(dir, { recursive: true, force: true });

console.log(
  `\nMedian of ${runs} calls; baseline ${baseline.conversations} conversations / ${baseline.messages} messages, large ${size.conversations} / ${size.messages}\n`,
);
console.log("| backend | read | baseline (ms) | large (ms) | ratio |");
console.log("|---|---|---:|---:|---:|");
for (const r of results)
  console.log(
    `| ${r.backend} | ${r.operation} | ${r.baselineMs.toFixed(2)} | ${r.largeMs.toFixed(2)} | ${r.ratio.toFixed(1)} |`,
  );

// Recording traces must not slow turns: the same turns on a server that records them and one that does not.
const overhead = await traceOverhead(5, Number(process.env.BENCH_ROUNDS ?? 60));
console.log(
  `\nTurn traces on the streaming path (SQLite, ${overhead.turns} turns each: a tool call, then 250 text deltas): ` +
    `${overhead.tracedMs.toFixed(2)} ms per turn traced, ${overhead.untracedMs.toFixed(2)} ms untraced, ratio ${overhead.ratio.toFixed(2)} (${overhead.tracesStored} traces stored)`,
);
// The request log per turn, as a ratio to the turn's stored messages, as the conversation grows.
const requestLog = await requestLogGrowth([10, 100, 1_000]);
console.log("\nRequest log per turn (the web demo's agent, 3 turns measured at each length: one shows the menu)\n");
console.log("| messages before | stored messages (chars) | request log (chars) | ratio | whole requests instead |");
console.log("|---:|---:|---:|---:|---:|");
for (const p of requestLog)
  console.log(
    `| ${p.messages} | ${p.storedMessageChars} | ${p.requestLogChars} | ${p.ratio.toFixed(2)} | ${p.wholeRequestsRatio.toFixed(1)} |`,
  );
console.log(
  `Flatness (ratio at ${requestLog.at(-1)!.messages} messages / at ${requestLog[0]!.messages}): ${(requestLog.at(-1)!.ratio / requestLog[0]!.ratio).toFixed(3)}`,
);
console.log(`RESULTS ${JSON.stringify({ reads: results, overhead, requestLog })}`);
