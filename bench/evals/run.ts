import { loadavg } from "node:os";
import { measureOverhead, type Round } from "./overhead.js";

/**
 * glove-evals' overhead per item run: BENCH_ITEMS (1 000) items × BENCH_REPETITIONS (3) on a
 * ScriptedModel agent at BENCH_CONCURRENCY (8), through runExperiment (run, score, store) against
 * the same factory's Glove run alone with processRequest, interleaved over BENCH_ROUNDS (5) rounds
 * after a warm-up round; medians. BENCH_STORAGE=sqlite keeps glove-evals' side in an in-memory
 * SQLite database. Runs that fail stop the bench (exit 1, no ratio). The last line is
 * `RESULTS <json>`.
 */
const report = await measureOverhead({
  items: Number(process.env.BENCH_ITEMS ?? 1000),
  repetitions: Number(process.env.BENCH_REPETITIONS ?? 3),
  concurrency: Number(process.env.BENCH_CONCURRENCY ?? 8),
  rounds: Number(process.env.BENCH_ROUNDS ?? 5),
  storage: process.env.BENCH_STORAGE === "sqlite" ? "sqlite" : "memory",
  onRound: (r: Round) =>
    console.error(
      `${r.round === 0 ? "warm-up" : `round ${r.round}`} (${r.first} first): direct ${r.direct.wallMs.toFixed(0)} ms, evals ${r.evals.wallMs.toFixed(0)} ms wall → ${r.wallRatio.toFixed(2)}× (CPU ${r.cpuRatio.toFixed(2)}×) · load ${loadavg()[0]!.toFixed(1)}`,
    ),
});

const runs = report.items * report.repetitions;
console.log(
  `${report.items} items × ${report.repetitions} repetitions = ${runs} runs at concurrency ${report.concurrency}, storage ${report.storage}\n`,
);
if (!report.ok || !report.median) {
  console.log("FAILED: runs failed, so no ratio is reported:");
  for (const failure of report.failures) console.log(`  ${failure}`);
  console.log(`RESULTS ${JSON.stringify(report)}`);
  process.exitCode = 1;
} else {
  const m = report.median;
  console.log("| side | wall µs/run | CPU µs/run |");
  console.log("|---|---:|---:|");
  console.log(
    `| agent alone (processRequest) | ${m.directWallUsPerRun.toFixed(0)} | ${m.directCpuUsPerRun.toFixed(0)} |`,
  );
  console.log(`| through glove-evals | ${m.evalsWallUsPerRun.toFixed(0)} | ${m.evalsCpuUsPerRun.toFixed(0)} |`);
  console.log(
    `\nglove-evals / alone (median of ${report.rounds.length - 1} rounds): wall ${m.wallRatio.toFixed(2)}×, CPU ${m.cpuRatio.toFixed(2)}×; +${m.overheadWallUsPerRun.toFixed(0)} µs wall per run`,
  );
  console.log(
    `per-round wall ratios: ${report.rounds
      .slice(1)
      .map((r) => r.wallRatio.toFixed(2))
      .join(", ")}`,
  );
  console.log(`RESULTS ${JSON.stringify(report)}`);
}
