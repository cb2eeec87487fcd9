import type { ExperimentProgress } from "../run/experiment.js";

/** One line: runs done of total, failures, each scorer's mean so far, the cost. */
export function progressLine(p: ExperimentProgress): string {
  const means = Object.entries(p.means)
    .map(([name, value]) => `${name} ${value.toFixed(2)}`)
    .join(" · ");
  const skipped = p.skipped ? ` (+${p.skipped} already done)` : "";
  return `[${p.done}/${p.total}]${skipped} ${p.failed} failed${means ? ` · ${means}` : ""} · $${p.costUsd.toFixed(4)}`;
}
