import { EvalError } from "../errors.js";
import { mean } from "../run/summary.js";
import type { ExperimentRecord, ItemResult } from "../storage/records.js";
import { bootstrapMeanInterval } from "./seeded-random.js";

export interface CompareOptions {
  /** Seed of the bootstrap's generator. Default 1. */
  seed?: number;
  /** Bootstrap resamples. Default 2000. */
  resamples?: number;
  /** Default 0.95. */
  confidence?: number;
}

/** One scorer across the two experiments. */
export interface ScoreComparison {
  base: number;
  candidate: number;
  /** candidate − base, over the items both ran (each item's mean over its repetitions). */
  diff: number;
  /** Bootstrap confidence interval of `diff` (paired by item). */
  interval: [number, number];
  /** "regressed" / "improved" when the interval excludes 0, else "same". */
  verdict: "regressed" | "improved" | "same";
}

/** One item across the two experiments. */
export interface ItemComparison {
  itemId: string;
  scores: Record<string, { base: number; candidate: number; diff: number }>;
  /** The most negative diff of the item's scores (regressions sort first). */
  worst: number;
}

export interface Comparison {
  base: { id: string; name: string; variant: string };
  candidate: { id: string; name: string; variant: string };
  scores: Record<string, ScoreComparison>;
  /** Worst change first. */
  items: ItemComparison[];
  /** Items only one experiment ran. */
  onlyInBase: string[];
  onlyInCandidate: string[];
}

type Side = { experiment: ExperimentRecord; results: ItemResult[] };

/**
 * Compares two experiments per item and per scorer, with a seeded bootstrap confidence interval on
 * each score's difference. Items are paired by id: run both on the same dataset version for a fair
 * comparison (a different version is allowed, and only the shared items count).
 */
export function compareExperiments(base: Side, candidate: Side, options: CompareOptions = {}): Comparison {
  const baseItems = perItem(base.results);
  const candidateItems = perItem(candidate.results);
  const shared = [...baseItems.keys()].filter((id) => candidateItems.has(id)).sort();
  if (!shared.length) {
    throw new EvalError(
      "GLOVE_EVAL_RUN",
      `Experiments ${base.experiment.id} and ${candidate.experiment.id} share no item to compare.`,
    );
  }
  const names = [
    ...new Set([...base.experiment.config.scorers, ...candidate.experiment.config.scorers].map((s) => s.name)),
  ].filter((name) => shared.some((id) => name in baseItems.get(id)! && name in candidateItems.get(id)!));
  const items: ItemComparison[] = shared.map((itemId) => {
    const scores: ItemComparison["scores"] = {};
    for (const name of names) {
      const b = baseItems.get(itemId)![name] ?? 0;
      const c = candidateItems.get(itemId)![name] ?? 0;
      scores[name] = { base: b, candidate: c, diff: c - b };
    }
    return { itemId, scores, worst: Math.min(0, ...Object.values(scores).map((s) => s.diff)) };
  });
  items.sort((a, b) => a.worst - b.worst || (a.itemId < b.itemId ? -1 : 1));
  const scores: Record<string, ScoreComparison> = {};
  const settings = {
    seed: options.seed ?? 1,
    resamples: options.resamples ?? 2000,
    confidence: options.confidence ?? 0.95,
  };
  for (const name of names) {
    const diffs = items.map((i) => i.scores[name]!.diff);
    const interval = bootstrapMeanInterval(diffs, settings);
    scores[name] = {
      base: mean(items.map((i) => i.scores[name]!.base)),
      candidate: mean(items.map((i) => i.scores[name]!.candidate)),
      diff: mean(diffs),
      interval,
      verdict: interval[1] < 0 ? "regressed" : interval[0] > 0 ? "improved" : "same",
    };
  }
  const label = (e: ExperimentRecord) => ({ id: e.id, name: e.name, variant: e.variant });
  return {
    base: label(base.experiment),
    candidate: label(candidate.experiment),
    scores,
    items,
    onlyInBase: [...baseItems.keys()].filter((id) => !candidateItems.has(id)).sort(),
    onlyInCandidate: [...candidateItems.keys()].filter((id) => !baseItems.has(id)).sort(),
  };
}

/** Each item's mean score per scorer over its repetitions. */
function perItem(results: ItemResult[]): Map<string, Record<string, number>> {
  const grouped = new Map<string, ItemResult[]>();
  for (const r of results) grouped.set(r.itemId, [...(grouped.get(r.itemId) ?? []), r]);
  return new Map(
    [...grouped].map(([id, runs]) => {
      const names = new Set(runs.flatMap((r) => Object.keys(r.scores)));
      return [id, Object.fromEntries([...names].map((n) => [n, mean(runs.map((r) => r.scores[n]?.score ?? 0))]))];
    }),
  );
}

/** The comparison as lines for a terminal: scores, then items with a change, regressions first. */
export function formatComparison(comparison: Comparison, options: { items?: number } = {}): string {
  const pct = (n: number) => `${n >= 0 ? "+" : ""}${(n * 100).toFixed(1)}`;
  const lines = [
    `${comparison.base.name} (${comparison.base.variant}) → ${comparison.candidate.name} (${comparison.candidate.variant})`,
  ];
  const ordered = Object.entries(comparison.scores).sort(([, a], [, b]) => a.diff - b.diff);
  for (const [name, s] of ordered) {
    const mark = s.verdict === "regressed" ? "▼ REGRESSED" : s.verdict === "improved" ? "▲ improved" : "  same";
    lines.push(
      `${mark.padEnd(12)} ${name}: ${s.base.toFixed(3)} → ${s.candidate.toFixed(3)} (${pct(s.diff)} pts, 95% CI ${pct(s.interval[0])}..${pct(s.interval[1])})`,
    );
  }
  const changed = comparison.items.filter((i) => Object.values(i.scores).some((s) => s.diff !== 0));
  for (const item of changed.slice(0, options.items ?? 20)) {
    const parts = Object.entries(item.scores)
      .filter(([, s]) => s.diff !== 0)
      .map(([n, s]) => `${n} ${s.base.toFixed(2)}→${s.candidate.toFixed(2)}`);
    lines.push(`  ${item.worst < 0 ? "-" : "+"} ${item.itemId}: ${parts.join(", ")}`);
  }
  if (changed.length > (options.items ?? 20))
    lines.push(`  … ${changed.length - (options.items ?? 20)} more items changed`);
  return lines.join("\n");
}
