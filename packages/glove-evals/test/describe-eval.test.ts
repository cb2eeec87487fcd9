/**
 * describeEval under a real vitest: a child `vitest run` on `*.eval.ts` fixtures (their own config
 * includes them), read through the JSON reporter. The careful agent passes the gate and every item;
 * the careless one (it books without asking) fails the gate's threshold and its `book` item.
 */
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { repoRoot } from "../../../test-support/child-processes.js";
import { SLOW_WORK_MS } from "../../../test-support/timeouts.js";

const folder = fileURLToPath(new URL("./fixtures/describe-eval/", import.meta.url));
const vitestBin = fileURLToPath(new URL("../../../node_modules/vitest/vitest.mjs", import.meta.url));

interface JsonReport {
  numFailedTests: number;
  numPassedTests: number;
  testResults: Array<{ assertionResults: Array<{ fullName: string; status: string; failureMessages: string[] }> }>;
}

function vitestOn(file: string): Promise<{ code: number | null; report: JsonReport; out: string }> {
  // The child is a vitest of its own: none of this worker's VITEST_* settings.
  const env = Object.fromEntries(Object.entries(process.env).filter(([key]) => !key.startsWith("VITEST")));
  const args = [vitestBin, "run", "--config", `${folder}vitest.config.ts`, "--reporter=json", file];
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { cwd: repoRoot, env: { ...env, NODE_ENV: "test" } });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (c: Buffer) => (stdout += c.toString()));
    child.stderr.on("data", (c: Buffer) => (stderr += c.toString()));
    child.on("error", reject);
    child.on("exit", (code) => {
      const start = stdout.indexOf("{");
      try {
        resolve({ code, report: JSON.parse(stdout.slice(start)) as JsonReport, out: stdout + stderr });
      } catch {
        reject(new Error(`vitest printed no JSON report (exit ${code}):\n${stdout}\n${stderr}`));
      }
    });
  });
}

const outcomes = (report: JsonReport) =>
  Object.fromEntries(report.testResults.flatMap((f) => f.assertionResults.map((t) => [t.fullName, t.status])));

describe("describeEval", () => {
  it("passes when every score meets the gate and each item passes", { timeout: SLOW_WORK_MS }, async () => {
    const { code, report, out } = await vitestOn("careful.eval.ts");
    expect(outcomes(report), out).toEqual({
      "careful bookings meets the gate": "passed",
      "careful bookings item book": "passed",
      "careful bookings item chat": "passed",
    });
    expect(code, out).toBe(0);
  });

  it(
    "fails when a score is under its threshold, naming the scorer and the item",
    { timeout: SLOW_WORK_MS },
    async () => {
      const { code, report, out } = await vitestOn("careless.eval.ts");
      expect(outcomes(report), out).toEqual({
        "careless bookings meets the gate": "failed",
        "careless bookings item book": "failed",
        "careless bookings item chat": "passed",
      });
      expect(code).toBe(1);
      const failed = (name: string) =>
        report.testResults
          .flatMap((f) => f.assertionResults.filter((t) => t.fullName === name))
          .flatMap((t) => t.failureMessages)
          .join("\n");
      expect(failed("careless bookings meets the gate")).toContain("tool_trajectory mean 0.750 is below 0.900");
      expect(failed("careless bookings item book")).toMatch(/#0 asked_for_missing:reservation_form 0\.00/);
    },
  );
});
