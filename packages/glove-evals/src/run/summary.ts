import type { ExperimentSummary, ItemResult, ScoreSummary } from "../storage/records.js";

export function mean(values: number[]): number {
  return values.length ? values.reduce((a, b) => a + b, 0) / values.length : 0;
}

/** Population standard deviation (0 for fewer than two values). */
export function stdev(values: number[]): number {
  if (values.length < 2) return 0;
  const m = mean(values);
  return Math.sqrt(mean(values.map((v) => (v - m) ** 2)));
}

/** Unbiased pass@k from n runs of which c passed (Chen et al.): 1 - C(n-c, k) / C(n, k). */
export function passAtK(n: number, c: number, k: number): number {
  if (n - c < k) return 1;
  let product = 1;
  for (let i = n - c + 1; i <= n; i++) product *= 1 - k / i;
  return 1 - product;
}

/** An experiment's totals from its results; `passAt` gives each scorer's pass threshold. */
export function summarize(
  results: ItemResult[],
  passAt: Record<string, number>,
  unpriced: string[] = [],
): ExperimentSummary {
  const byItem = new Map<string, ItemResult[]>();
  for (const r of results) byItem.set(r.itemId, [...(byItem.get(r.itemId) ?? []), r]);
  const scores: Record<string, ScoreSummary> = {};
  for (const [name, threshold] of Object.entries(passAt)) {
    const all = results.map((r) => r.scores[name]?.score ?? 0);
    let passK = 0;
    const repStdevs: number[] = [];
    for (const runs of byItem.values()) {
      const values = runs.map((r) => r.scores[name]?.score ?? 0);
      const passed = values.filter((v) => v >= threshold).length;
      passK += passAtK(runs.length, passed, runs.length);
      repStdevs.push(stdev(values));
    }
    scores[name] = {
      mean: mean(all),
      stdev: stdev(all),
      repetitionStdev: mean(repStdevs),
      passRate: all.length ? all.filter((v) => v >= threshold).length / all.length : 0,
      passAtK: byItem.size ? passK / byItem.size : 0,
      errors: results.filter((r) => r.scores[name]?.error !== undefined).length,
    };
  }
  return {
    items: byItem.size,
    runs: results.length,
    failedRuns: results.filter((r) => r.status !== "done").length,
    scores,
    tokensIn: results.reduce((a, r) => a + r.usage.tokensIn, 0),
    tokensOut: results.reduce((a, r) => a + r.usage.tokensOut, 0),
    modelCalls: results.reduce((a, r) => a + r.usage.modelCalls, 0),
    costUsd: results.reduce((a, r) => a + r.costUsd, 0),
    unpriced,
    meanLatencyMs: mean(results.map((r) => r.latencyMs)),
  };
}
