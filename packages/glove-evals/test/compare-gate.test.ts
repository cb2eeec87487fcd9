import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import {
  baselineOf,
  bootstrapMeanInterval,
  checkGate,
  compareExperiments,
  costOf,
  formatComparison,
  junitReport,
  passAtK,
  priceOf,
  readBaseline,
  summarize,
  withPrices,
  writeBaseline,
  type ExperimentRecord,
  type ItemResult,
} from "../src/index.js";

const result = (itemId: string, repetition: number, score: number, experimentId = "e"): ItemResult => ({
  experimentId,
  itemId,
  repetition,
  conversationId: `${experimentId}-${itemId}-${repetition}`,
  status: "done",
  error: null,
  output: "",
  scores: { quality: { score, reason: score === 1 ? "good" : "bad <&>" } },
  usage: { tokensIn: 10, tokensOut: 5, modelCalls: 1 },
  costUsd: 0.001,
  latencyMs: 20,
  retries: 0,
  createdAt: "2025-01-01T00:00:00.000Z",
});
const experiment = (id: string, results: ItemResult[]): ExperimentRecord => ({
  id,
  name: `exp ${id}`,
  datasetName: "d",
  datasetVersion: "sha256:1",
  variant: id,
  status: "completed",
  startedAt: "2025-01-01T00:00:00.000Z",
  endedAt: "2025-01-01T00:01:00.000Z",
  config: { repetitions: 2, concurrency: 1, timeoutMs: null, scorers: [{ name: "quality", passAt: 1 }], itemIds: [] },
  summary: summarize(results, { quality: 1 }),
});

describe("summaries", () => {
  it("pass@k, pass rate and the spread between repetitions", () => {
    const s = summarize([result("a", 0, 1), result("a", 1, 0), result("b", 0, 0), result("b", 1, 0)], { quality: 1 })
      .scores["quality"]!;
    expect(s).toMatchObject({ mean: 0.25, passRate: 0.25, passAtK: 0.5, repetitionStdev: 0.25 });
    expect(passAtK(10, 3, 1)).toBeCloseTo(0.3);
    expect(passAtK(5, 0, 3)).toBe(0);
    expect(passAtK(5, 3, 3)).toBe(1);
  });
});

describe("compareExperiments", () => {
  const base = ["a", "b", "c", "d"].flatMap((id) => [result(id, 0, 1, "base"), result(id, 1, 1, "base")]);
  const worse = [
    ...["a", "b", "c"].flatMap((id) => [result(id, 0, 0, "cand"), result(id, 1, 0, "cand")]),
    result("d", 0, 1, "cand"),
    result("d", 1, 1, "cand"),
  ];
  it("pairs items, puts regressions first and gives a seeded interval that excludes 0 for a clear drop", () => {
    const comparison = compareExperiments(
      { experiment: experiment("base", base), results: base },
      { experiment: experiment("cand", worse), results: worse },
    );
    expect(comparison.scores["quality"]).toMatchObject({ base: 1, candidate: 0.25, diff: -0.75, verdict: "regressed" });
    expect(comparison.items.map((i) => i.itemId)).toEqual(["a", "b", "c", "d"]);
    const again = compareExperiments(
      { experiment: experiment("base", base), results: base },
      { experiment: experiment("cand", worse), results: worse },
    );
    expect(again.scores["quality"]!.interval).toEqual(comparison.scores["quality"]!.interval);
    expect(formatComparison(comparison)).toMatch(/REGRESSED\s+quality: 1\.000 → 0\.250/);
    const same = compareExperiments(
      { experiment: experiment("base", base), results: base },
      { experiment: experiment("b2", base), results: base },
    );
    expect(same.scores["quality"]!.verdict).toBe("same");
  });

  it("the bootstrap interval holds the sample mean and shrinks with more data", () => {
    const small = bootstrapMeanInterval([0, 1, 0, 1], { seed: 7, resamples: 1000, confidence: 0.95 });
    const large = bootstrapMeanInterval(
      Array.from({ length: 400 }, (_, i) => i % 2),
      { seed: 7, resamples: 1000, confidence: 0.95 },
    );
    expect(small[0]).toBeLessThanOrEqual(0.5);
    expect(small[1]).toBeGreaterThanOrEqual(0.5);
    expect(large[1] - large[0]).toBeLessThan(small[1] - small[0]);
  });
});

const dir = mkdtempSync(join(tmpdir(), "glove-evals-gate-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("the gate", () => {
  const good = ["a", "b"].map((id) => result(id, 0, 1));
  const bad = [result("a", 0, 1), result("b", 0, 0)];
  it("fails below a threshold or a pass rate, and on a regression past the baseline's margin", async () => {
    expect(checkGate(experiment("g", good), { thresholds: { quality: 0.9 } }).passed).toBe(true);
    const low = checkGate(experiment("b", bad), {
      thresholds: { quality: 0.9, missing: 0.1 },
      passRates: { quality: 0.6 },
    });
    expect(low.failures.map((f) => f.kind)).toEqual(["threshold", "missing_score", "pass_rate"]);

    const path = join(dir, "baseline.json");
    await writeBaseline(path, baselineOf(experiment("g", good)));
    const baseline = await readBaseline(path);
    expect(baseline.scores).toEqual({ quality: 1 });
    expect(checkGate(experiment("b", bad), { baseline, margin: 0.6 }).passed).toBe(true);
    const regressed = checkGate(experiment("b", bad), { baseline, margin: 0.1 });
    expect(regressed.failures[0]).toMatchObject({
      kind: "regression",
      message: "quality fell from 1.000 to 0.500 (more than the 0.100 margin)",
    });
    await expect(readBaseline(join(dir, "none.json"))).rejects.toThrow(/--update-baseline/);
  });

  it("JUnit XML: a case per run and one for the gate, failures escaped", () => {
    const verdict = checkGate(experiment("b", bad), { thresholds: { quality: 0.9 } });
    const xml = junitReport(experiment("b", bad), bad, verdict);
    expect(xml).toContain('<testsuites name="glove-evals" tests="3" failures="2">');
    expect(xml).toContain('<testcase classname="d" name="b#0"');
    expect(xml).toContain("quality: 0.000 &lt; 1 (bad &lt;&amp;&gt;)");
    expect(xml).toContain('<failure message="quality mean 0.500 is below 0.900">');
  });
});

describe("prices", () => {
  it("finds a model by adapter name, id or dated id; apps extend the table", () => {
    expect(priceOf("anthropic:claude-sonnet-4-5-20250929")).toEqual({ inputPerMillion: 3, outputPerMillion: 15 });
    expect(priceOf("my-model")).toBeUndefined();
    const table = withPrices({ "my-model": { inputPerMillion: 1, outputPerMillion: 2 } });
    expect(costOf([{ model: "local:my-model", tokensIn: 2_000_000, tokensOut: 1_000_000, calls: 3 }], table)).toEqual({
      usd: 4,
      unpriced: [],
    });
    expect(costOf([{ model: "x", tokensIn: 1, tokensOut: 0, calls: 1 }]).unpriced).toEqual(["x"]);
  });
});
