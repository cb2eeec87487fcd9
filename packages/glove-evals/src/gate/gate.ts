import type { ExperimentRecord } from "../storage/records.js";
import type { Baseline } from "./baseline.js";

/** What a CI run must meet. */
export interface GateOptions {
  /** Minimum mean score per scorer. */
  thresholds?: Record<string, number>;
  /** Minimum pass rate per scorer (share of runs at or above the scorer's passAt). */
  passRates?: Record<string, number>;
  /** Scores may not fall below the baseline's by more than `margin`. */
  baseline?: Baseline;
  /** Allowed drop below the baseline, in score units. Default 0.05. */
  margin?: number;
  /** Failed runs (errors, timeouts) allowed. Default: any number (their scores count as they are). */
  maxFailedRuns?: number;
}

export interface GateFailure {
  scorer: string | null;
  kind: "threshold" | "pass_rate" | "regression" | "failed_runs" | "missing_score";
  actual: number;
  limit: number;
  message: string;
}

export interface GateVerdict {
  passed: boolean;
  failures: GateFailure[];
  /** Notes that do not fail the gate (a baseline of another dataset version). */
  notes: string[];
}

/** Checks an experiment's summary against thresholds and a baseline. */
export function checkGate(experiment: ExperimentRecord, options: GateOptions): GateVerdict {
  const failures: GateFailure[] = [];
  const notes: string[] = [];
  const summary = experiment.summary;
  const scores = summary?.scores ?? {};
  const fmt = (n: number) => n.toFixed(3);
  for (const [scorer, limit] of Object.entries(options.thresholds ?? {})) {
    const s = scores[scorer];
    if (!s)
      failures.push({ scorer, kind: "missing_score", actual: 0, limit, message: `no scorer named "${scorer}" ran` });
    else if (s.mean < limit)
      failures.push({
        scorer,
        kind: "threshold",
        actual: s.mean,
        limit,
        message: `${scorer} mean ${fmt(s.mean)} is below ${fmt(limit)}`,
      });
  }
  for (const [scorer, limit] of Object.entries(options.passRates ?? {})) {
    const s = scores[scorer];
    if (!s)
      failures.push({ scorer, kind: "missing_score", actual: 0, limit, message: `no scorer named "${scorer}" ran` });
    else if (s.passRate < limit)
      failures.push({
        scorer,
        kind: "pass_rate",
        actual: s.passRate,
        limit,
        message: `${scorer} pass rate ${fmt(s.passRate)} is below ${fmt(limit)}`,
      });
  }
  if (options.baseline) {
    const margin = options.margin ?? 0.05;
    const baseline = options.baseline;
    if (baseline.datasetVersion !== experiment.datasetVersion) {
      notes.push(
        `the baseline was written for dataset version ${baseline.datasetVersion}; this run used ${experiment.datasetVersion}`,
      );
    }
    for (const [scorer, was] of Object.entries(baseline.scores)) {
      const s = scores[scorer];
      if (!s) {
        failures.push({
          scorer,
          kind: "missing_score",
          actual: 0,
          limit: was,
          message: `the baseline has "${scorer}" but it did not run`,
        });
      } else if (s.mean < was - margin) {
        failures.push({
          scorer,
          kind: "regression",
          actual: s.mean,
          limit: was - margin,
          message: `${scorer} fell from ${fmt(was)} to ${fmt(s.mean)} (more than the ${fmt(margin)} margin)`,
        });
      }
    }
  }
  if (options.maxFailedRuns !== undefined && summary && summary.failedRuns > options.maxFailedRuns) {
    failures.push({
      scorer: null,
      kind: "failed_runs",
      actual: summary.failedRuns,
      limit: options.maxFailedRuns,
      message: `${summary.failedRuns} runs failed (at most ${options.maxFailedRuns} allowed)`,
    });
  }
  return { passed: failures.length === 0, failures, notes };
}
