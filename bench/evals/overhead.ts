import type { AgentFactory } from "glove-server";
import { expectedAnswer, lookupAgent, lookupDataset } from "./agent.js";
import { directPass, evalsPass, median, type PassOptions, type PassResult } from "./measure.js";

export interface OverheadOptions {
  items: number;
  repetitions: number;
  concurrency: number;
  /** Timed rounds (each runs both sides, the order alternating), after one discarded warm-up round. */
  rounds: number;
  storage?: "memory" | "sqlite";
  /** The agent (default lookupAgent); it must answer item n with expectedAnswer(n). */
  agent?: AgentFactory;
  /** Called after each round (progress). */
  onRound?: (round: Round) => void;
}

export interface Round {
  /** 0 is the warm-up. */
  round: number;
  first: PassResult["side"];
  direct: PassResult;
  evals: PassResult;
  wallRatio: number;
  cpuRatio: number;
}

export interface OverheadReport {
  items: number;
  repetitions: number;
  concurrency: number;
  storage: "memory" | "sqlite";
  /** False when any run of any pass failed: then `median` is null (no ratio from failed runs). */
  ok: boolean;
  /** The first failures seen (at most 10), with the round they were in. */
  failures: string[];
  rounds: Round[];
  median: {
    directWallUsPerRun: number;
    evalsWallUsPerRun: number;
    directCpuUsPerRun: number;
    evalsCpuUsPerRun: number;
    /** Median over rounds of evals / direct. */
    wallRatio: number;
    cpuRatio: number;
    /** Median over rounds of (evals − direct) wall time per run. */
    overheadWallUsPerRun: number;
  } | null;
}

const perRun = (pass: PassResult, field: "wallMs" | "cpuMs") => (pass[field] * 1000) / pass.runs;

/**
 * Framework overhead of glove-evals per item run: the same agent factory run alone
 * (`processRequest`) and through `runExperiment` (in-process server, scorers, stored results), at
 * the same concurrency, in alternating order round after round. Stops at the first failed run.
 */
export async function measureOverhead(options: OverheadOptions): Promise<OverheadReport> {
  const dataset = lookupDataset(options.items);
  const storage = options.storage ?? "memory";
  const pass: PassOptions = {
    dataset,
    agent: options.agent ?? lookupAgent,
    expected: (id) => expectedAnswer(Number(id.slice("item-".length))),
    repetitions: options.repetitions,
    concurrency: options.concurrency,
    storage,
  };
  const report: OverheadReport = {
    items: options.items,
    repetitions: options.repetitions,
    concurrency: options.concurrency,
    storage,
    ok: true,
    failures: [],
    rounds: [],
    median: null,
  };
  for (let round = 0; round <= options.rounds; round++) {
    const first = round % 2 === 0 ? "direct" : "evals";
    const [a, b] = first === "direct" ? [directPass, evalsPass] : [evalsPass, directPass];
    const one = await a(pass);
    const two = await b(pass);
    const [direct, evals] = first === "direct" ? [one, two] : [two, one];
    const failures = [...direct.failures.map((f) => `direct ${f}`), ...evals.failures.map((f) => `evals ${f}`)];
    if (failures.length) {
      report.ok = false;
      report.failures = failures.slice(0, 10).map((f) => `round ${round}: ${f}`);
      return report;
    }
    const done: Round = {
      round,
      first,
      direct,
      evals,
      wallRatio: evals.wallMs / direct.wallMs,
      cpuRatio: evals.cpuMs / direct.cpuMs,
    };
    report.rounds.push(done);
    options.onRound?.(done);
  }
  const timed = report.rounds.slice(1);
  report.median = {
    directWallUsPerRun: median(timed.map((r) => perRun(r.direct, "wallMs"))),
    evalsWallUsPerRun: median(timed.map((r) => perRun(r.evals, "wallMs"))),
    directCpuUsPerRun: median(timed.map((r) => perRun(r.direct, "cpuMs"))),
    evalsCpuUsPerRun: median(timed.map((r) => perRun(r.evals, "cpuMs"))),
    wallRatio: median(timed.map((r) => r.wallRatio)),
    cpuRatio: median(timed.map((r) => r.cpuRatio)),
    overheadWallUsPerRun: median(timed.map((r) => perRun(r.evals, "wallMs") - perRun(r.direct, "wallMs"))),
  };
  return report;
}
