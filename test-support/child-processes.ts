import { execFileSync, spawn, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdirSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { expect } from "vitest";
import { PROMPT_WAIT_MS, SLOW_WORK_MS } from "./timeouts.js";

/** The repository root: child processes run there, on the built packages. */
export const repoRoot = fileURLToPath(new URL("..", import.meta.url));

/**
 * Builds `packageDir` (relative to the root) and what it references, for child processes, which
 * cannot load TypeScript sources. A no-op when the builds are current (`npm test` builds
 * everything beforehand); test files building at once take turns, so none reads a half-written build.
 */
export function buildForChildProcesses(packageDir: string): void {
  withBuildLock(() => execFileSync("npx", ["tsc", "-b", packageDir], { cwd: repoRoot, stdio: "pipe" }));
}

function withBuildLock(build: () => void): void {
  const lock = join(
    tmpdir(),
    `glove-test-build-${createHash("sha256").update(repoRoot).digest("hex").slice(0, 12)}.lock`,
  );
  // Another test file's build may take long on a loaded machine: wait nearly as long as a build may take.
  const giveUpAt = Date.now() + SLOW_WORK_MS - 10_000;
  for (;;) {
    try {
      mkdirSync(lock);
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST" || Date.now() > giveUpAt) throw error;
      // A lock left by a killed run is older than any build takes.
      const lockedAt = statSync(lock, { throwIfNoEntry: false })?.mtimeMs ?? Date.now();
      if (Date.now() - lockedAt > SLOW_WORK_MS) rmSync(lock, { recursive: true, force: true });
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 100);
    }
  }
  try {
    build();
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

/** Runs a node script to its end; `out` is its stdout and stderr together. */
export function runNode(script: string, args: string[]): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [script, ...args], { cwd: repoRoot });
    let out = "";
    child.stdout.on("data", (c: Buffer) => (out += c.toString()));
    child.stderr.on("data", (c: Buffer) => (out += c.toString()));
    child.on("exit", (code) => resolve({ code, out }));
  });
}

/** Runs a node script that should print `expected` and nothing on stderr, e.g. a store call from another process. */
export function expectNodeOutput(script: string, args: string[], expected: string, timeoutMs: number): void {
  const child = spawnSync(process.execPath, [script, ...args], { cwd: repoRoot, encoding: "utf8", timeout: timeoutMs });
  expect(child.stderr).toBe("");
  expect(child.stdout).toBe(expected);
}

/** Starts a script that prints TOOL_RUNNING from inside a tool, and kills it with SIGKILL right then. */
export async function killWhileToolRuns(script: string, args: string[]): Promise<void> {
  const child = spawn(process.execPath, [script, ...args], { cwd: repoRoot, stdio: ["ignore", "pipe", "pipe"] });
  let stderr = "";
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`child never started its tool; stderr: ${stderr}`)),
      PROMPT_WAIT_MS,
    );
    child.stdout.on("data", (chunk: Buffer) => {
      if (chunk.toString().includes("TOOL_RUNNING")) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.on("exit", (code) => reject(new Error(`child exited early (${code}); stderr: ${stderr}`)));
  });
  const exited = new Promise((resolve) => child.on("exit", (_code, signal) => resolve(signal)));
  child.kill("SIGKILL");
  expect(await exited).toBe("SIGKILL");
}

/**
 * Checks what two writers (A and B, `batches` batches of 3 messages each, see append-batches.mjs)
 * left in one conversation: every batch whole and in order, and the writers really overlapping.
 */
export function expectBatchesIntact(texts: readonly string[], batches: number): void {
  expect(texts).toHaveLength(2 * batches * 3);
  for (const writer of ["A", "B"]) {
    let last = -1;
    for (let i = 0; i < batches; i++) {
      const start = texts.indexOf(`${writer}:${i}:0`);
      expect(texts.slice(start, start + 3)).toEqual([`${writer}:${i}:0`, `${writer}:${i}:1`, `${writer}:${i}:2`]);
      expect(start).toBeGreaterThan(last);
      last = start;
    }
  }
  // Both writers really overlapped (otherwise the test proves little).
  const firstB = texts.indexOf("B:0:0");
  const lastA = texts.lastIndexOf(`A:${batches - 1}:2`);
  const firstA = texts.indexOf("A:0:0");
  const lastB = texts.lastIndexOf(`B:${batches - 1}:2`);
  expect(firstB < lastA && firstA < lastB).toBe(true);
}
