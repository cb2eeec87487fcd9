import { spawn } from "node:child_process";
import { setTimeout as sleep } from "node:timers/promises";
import type { StoreAdapter } from "glove-core";
import { expect } from "vitest";
import { repoRoot } from "./child-processes.js";
import { PROMPT_WAIT_MS } from "./timeouts.js";

/**
 * Starts a script that records model calls in a loop (fixtures/record-model-calls.mjs) and kills
 * it with SIGKILL `afterMs` after it said RECORDING: somewhere inside or between its writes.
 */
export async function killWhileRecording(script: string, args: string[], afterMs: number): Promise<void> {
  const child = spawn(process.execPath, [script, ...args], { cwd: repoRoot, stdio: ["ignore", "pipe", "pipe"] });
  let stderr = "";
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise((resolve) => child.on("exit", (_code, signal) => resolve(signal)));
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`child never recorded; stderr: ${stderr}`)), PROMPT_WAIT_MS);
    child.stdout.on("data", (chunk: Buffer) => {
      if (chunk.toString().includes("RECORDING")) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.on("exit", (code) => reject(new Error(`child exited early (${code}); stderr: ${stderr}`)));
  });
  await sleep(afterMs);
  child.kill("SIGKILL");
  expect(await exited).toBe("SIGKILL");
}

/** Every model call the killed processes left is whole: two messages, 4 tokens and one turn each, in order. */
export async function expectWholeModelCalls(store: StoreAdapter): Promise<number> {
  const turns = await store.getTurnCount();
  const texts = (await store.getMessages()).map((m) => m.text);
  expect(turns).toBeGreaterThan(0);
  expect(texts).toEqual(Array.from({ length: turns }, (_, i) => [`${i}:0`, `${i}:1`]).flat());
  expect(await store.getTokenCount()).toBe(4 * turns);
  return turns;
}
