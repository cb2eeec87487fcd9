/**
 * `headersTimeoutMs` closes every connection without a complete request (headers) in time — one
 * that never sends a byte too — while a connection kept alive between requests follows
 * `keepAliveTimeoutMs` instead, on each supported Node line. The check runs in a child process
 * per line (fixtures/headers-timeout.mjs, on the built package) with every other limit at ten
 * minutes, so a close it sees can only be the headers timeout's.
 */
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";
import { buildForChildProcesses, repoRoot } from "../../../test-support/child-processes.js";
import { nodeBinary, SUPPORTED_NODE_LINES, type NodeLine } from "../../../test-support/node-lines.js";
import { SLOW_WORK_MS } from "../../../test-support/timeouts.js";

const fixture = fileURLToPath(new URL("./fixtures/headers-timeout.mjs", import.meta.url));

beforeAll(() => buildForChildProcesses("packages/glove-server"), SLOW_WORK_MS);

interface Refusal {
  status: number;
  code: string;
}
interface Outcome {
  node: string;
  error?: string;
  silent: Refusal;
  partial: Refusal;
  keptAliveOpenAfterwards: boolean;
  keptAliveSecondStatus: number;
  unfinishedNext: Refusal;
}

function runFixture(line: NodeLine): Promise<{ outcome: Outcome | undefined; out: string }> {
  return new Promise((resolve) => {
    const child = spawn(nodeBinary(line), [fixture, "300"], { cwd: repoRoot });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    child.on("exit", () => {
      const line = stdout.trim().split("\n").at(-1) ?? "";
      resolve({ outcome: line.startsWith("{") ? (JSON.parse(line) as Outcome) : undefined, out: stdout + stderr });
    });
  });
}

const timedOut = { status: 408, code: "GLOVE_REQUEST_TIMEOUT" };

describe("headersTimeoutMs", () => {
  for (const line of SUPPORTED_NODE_LINES) {
    it(
      `on Node ${line}: closes silent and half-sent connections with a 408; a kept-alive idle one stays open`,
      async () => {
        const { outcome, out } = await runFixture(line);
        expect(outcome, out).toBeDefined();
        expect(outcome!.node.startsWith(`v${line}.`)).toBe(true);
        expect(outcome!.error, out).toBeUndefined();
        // Opened and never sent a byte: answered 408 and closed.
        expect(outcome!.silent).toEqual(timedOut);
        // A request line and one header, then nothing.
        expect(outcome!.partial).toEqual(timedOut);
        // Idle since before those two were opened, so longer than the headers timeout, yet open and serving.
        expect(outcome!.keptAliveOpenAfterwards).toBe(true);
        expect(outcome!.keptAliveSecondStatus).toBe(200);
        // Its next request begun and never finished: the headers timeout applies again.
        expect(outcome!.unfinishedNext).toEqual(timedOut);
      },
      SLOW_WORK_MS,
    );
  }
});
