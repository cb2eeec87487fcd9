import { relative } from "node:path";
import type { Reporter, TestModule, TestSpecification } from "vitest/node";

/**
 * One line per finished test file — `[n/total] elapsed  path (duration)` — so a long run shows how
 * far it is, also where the output is not a terminal (CI logs, a pipe).
 */
export default class ProgressReporter implements Reporter {
  #total = 0;
  #done = 0;
  #startedAt = Date.now();

  onTestRunStart(specifications: ReadonlyArray<TestSpecification>): void {
    this.#total = specifications.length;
    this.#done = 0;
    this.#startedAt = Date.now();
    process.stderr.write(`[0/${this.#total}] test files started\n`);
  }

  onTestModuleEnd(module: TestModule): void {
    this.#done++;
    const state = module.state();
    const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
    const mark = state === "failed" ? " FAILED" : "";
    const file = relative(process.cwd(), module.moduleId);
    process.stderr.write(
      `[${this.#done}/${this.#total}] ${seconds(Date.now() - this.#startedAt)}  ${file} (${seconds(module.diagnostic().duration)})${mark}\n`,
    );
  }
}
