/**
 * The waiting-turns bench, small: 200 conversations of each kind in a child process with V8's
 * optimizing and baseline compilers off (their code counts as heap and comes in bursts; the
 * interpreter's bytecode settles during the warm-up), so the heap after a forced GC shows only
 * what the server keeps. A waiting conversation that left memory must add ≤ 1 KiB; kept in
 * memory, one costs tens of KiB (the measurement sees a retained Glove).
 */
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";
import type { WaitingMemoryResult } from "../measure.js";
import { buildForChildProcesses, repoRoot } from "../../../test-support/child-processes.js";
import { SLOW_WORK_MS } from "../../../test-support/timeouts.js";

const script = fileURLToPath(new URL("../../dist/waiting-turns/run.js", import.meta.url));
const CONVERSATIONS = 200;

beforeAll(() => buildForChildProcesses("bench"), SLOW_WORK_MS);

function runBench(): Promise<{ code: number | null; out: string }> {
  const flags = ["--expose-gc", "--no-opt", "--no-sparkplug", "--no-flush-bytecode"];
  const env = {
    ...process.env,
    BENCH_CONVERSATIONS: String(CONVERSATIONS),
    BENCH_WARM_UP: "200",
    BENCH_KEPT: String(CONVERSATIONS),
  };
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [...flags, script], { cwd: repoRoot, env });
    let out = "";
    child.stdout.on("data", (c: Buffer) => (out += c.toString()));
    child.stderr.on("data", (c: Buffer) => (out += c.toString()));
    child.on("exit", (code) => resolve({ code, out }));
  });
}

describe("waiting-turns bench", () => {
  it(
    "a waiting conversation that left memory adds at most 1 KiB of heap; one kept in memory far more",
    { timeout: SLOW_WORK_MS },
    async () => {
      const { code, out } = await runBench();
      expect(code, out).toBe(0);
      const line = out.split("\n").find((l) => l.startsWith("RESULTS "));
      expect(line, out).toBeDefined();
      const results = JSON.parse(line!.slice("RESULTS ".length)) as WaitingMemoryResult[];
      const byKind = Object.fromEntries(results.map((r) => [r.kind, r]));
      const waiting = byKind.waiting!;
      const kept = byKind["waiting-in-memory"]!;
      // Every waiting conversation left memory with its question stored.
      expect(waiting).toMatchObject({ conversations: CONVERSATIONS, live: 0, pendingQuestions: CONVERSATIONS });
      expect(waiting.bytesPerConversation, out).toBeLessThanOrEqual(1024);
      expect(byKind.idle!.live).toBe(0);
      // The measurement sees what stays: a waiting conversation held in memory (its Glove) is far over.
      expect(kept.pendingQuestions).toBe(CONVERSATIONS);
      expect(kept.bytesPerConversation, out).toBeGreaterThan(8 * 1024);
      expect(out).toContain("PASS");
    },
  );
});
