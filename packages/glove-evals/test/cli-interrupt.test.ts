/**
 * Ctrl-C on the real CLI binary (the built dist/cli/main.js in a child process): SIGINT after a few
 * results exits 130 keeping what finished, and --resume runs exactly the rest.
 */
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildForChildProcesses, repoRoot } from "../../../test-support/child-processes.js";
import { SLOW_WORK_MS } from "../../../test-support/timeouts.js";
import { sqliteEvalStorage } from "../src/index.js";

const bin = fileURLToPath(new URL("../dist/cli/main.js", import.meta.url));
const config = fileURLToPath(new URL("./fixtures/slow.config.mjs", import.meta.url));
const dir = mkdtempSync(join(tmpdir(), "glove-evals-sigint-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
beforeAll(() => buildForChildProcesses("packages/glove-evals"), SLOW_WORK_MS);

/** Runs the CLI; `interruptAfter` sends SIGINT once that many results are on the progress lines. */
function cli(
  args: string[],
  interruptAfter?: number,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [bin, ...args], {
      cwd: repoRoot,
      env: { ...process.env, GLOVE_EVALS_TEST_DIR: dir },
    });
    let stdout = "";
    let stderr = "";
    let sent = false;
    child.stdout.on("data", (c: Buffer) => (stdout += c.toString()));
    child.stderr.on("data", (c: Buffer) => {
      stderr += c.toString();
      const done = Math.max(0, ...[...stderr.matchAll(/^\[(\d+)\/\d+\]/gm)].map((m) => Number(m[1])));
      if (interruptAfter !== undefined && !sent && done >= interruptAfter) {
        sent = true;
        child.kill("SIGINT");
      }
    });
    child.on("error", reject);
    child.on("exit", (code) => resolve({ code, stdout, stderr }));
  });
}

const itemsIn = (log: string) =>
  log
    .split("\n")
    .filter(Boolean)
    .map((q) => `item-${q.replace("question ", "")}`);

async function storedItems(experimentId: string): Promise<string[]> {
  const storage = sqliteEvalStorage({ path: join(dir, "evals.db") });
  try {
    return (await storage.results.results(experimentId)).map((r) => r.itemId).sort();
  } finally {
    await storage.close();
  }
}

describe("glove-evals run: Ctrl-C", () => {
  it(
    "exits 130 keeping finished runs; --resume runs only the items without a result",
    { timeout: SLOW_WORK_MS },
    async () => {
      const first = await cli(["run", config], 3);
      expect(first.code, first.stderr).toBe(130);
      expect(first.stderr).toContain("stopping: finished runs are kept");
      expect(first.stdout).toMatch(/: interrupted\n/);
      const id = first.stdout.match(/--resume (\S+)/)![1]!;
      const kept = await storedItems(id);
      expect(kept.length).toBeGreaterThanOrEqual(3);
      expect(kept.length).toBeLessThan(12);

      writeFileSync(join(dir, "runs.log"), "");
      const resumed = await cli(["run", config, "--resume", id]);
      expect(resumed.code, resumed.stderr).toBe(0);
      expect(resumed.stderr).toContain(`(+${kept.length} already done)`);
      expect(resumed.stdout).toContain(`experiment ${id} `);
      expect(resumed.stdout).toMatch(/: completed\n/);
      // The resumed process ran each remaining item once and none of the stored ones.
      const rerun = itemsIn(readFileSync(join(dir, "runs.log"), "utf8")).sort();
      const all = Array.from({ length: 12 }, (_, n) => `item-${n}`).sort();
      expect(rerun).toEqual(all.filter((item) => !kept.includes(item)));
      expect(await storedItems(id)).toEqual(all);
    },
  );
});
