/** `*.eval.ts` files under vitest: an experiment as a test suite, its gate as assertions. */
import { describe, expect, it } from "vitest";
import { runConfig, type ConfigRun, type EvalConfig } from "../cli/config.js";

export interface DescribeEvalOptions {
  /** Relative paths of the config (dataset, baseline, reports) are read from here. Default process.cwd(). */
  baseDir?: string;
  /** A test per item (the item's runs pass every scorer at its passAt). Default true. */
  perItem?: boolean;
}

/**
 * Runs the experiment once (in `beforeAll` terms: in the first test), then asserts the gate and,
 * per item, that every run passed each scorer. Use in a `*.eval.ts` file vitest includes.
 */
export function describeEval(name: string, config: EvalConfig, options: DescribeEvalOptions = {}): void {
  describe(name, () => {
    let outcome: Promise<ConfigRun> | undefined;
    const ran = () => (outcome ??= runConfig(config, { baseDir: options.baseDir ?? process.cwd() }));
    it("meets the gate", async () => {
      const { gate } = await ran();
      const failures = gate.failures.map((f) => f.message);
      // The message names what failed: vitest's own diff of arrays is cut short in reports.
      expect(failures, `gate failed:\n${failures.join("\n")}`).toEqual([]);
    });
    if (options.perItem === false || typeof config.dataset === "string") return;
    for (const item of config.dataset.items) {
      it(`item ${item.id}`, async () => {
        const { results, experiment } = await ran();
        const passAt = Object.fromEntries(experiment.config.scorers.map((s) => [s.name, s.passAt]));
        const failing = results
          .filter((r) => r.itemId === item.id)
          .flatMap((r) =>
            Object.entries(r.scores)
              .filter(([scorer, s]) => s.score < (passAt[scorer] ?? 1))
              .map(([scorer, s]) => `#${r.repetition} ${scorer} ${s.score.toFixed(2)}: ${s.error ?? s.reason}`),
          );
        expect(failing, `item ${item.id} failed:\n${failing.join("\n")}`).toEqual([]);
      });
    }
  });
}

export { defineEvalConfig } from "../cli/config.js";
export type { EvalConfig } from "../cli/config.js";
