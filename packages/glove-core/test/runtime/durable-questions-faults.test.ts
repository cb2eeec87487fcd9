/**
 * Durable questions under fault injection: a tool asks two questions with a recorded step between
 * them, and the process running the turn dies at a store call — every store call of the turn, the
 * call landing or not — possibly again in the processes that take over. Whatever the crash points,
 * the conversation ends valid, no question is answered twice, and the tool's effects happen once:
 * except in the two windows no store can close (between a step's work and its record, between the
 * tool's last line and its stored result), where they happen once more, never less.
 * (glove-sqlite's durable-faults.test.ts runs the same on SQLite.)
 */
import { describe, it } from "vitest";
import { checkCrashSequences, checkEveryCrashPoint } from "./support/crash-properties.js";

describe("durable questions, the process killed at every await point (MemoryStore)", () => {
  it.each(["async", "sync"] as const)(
    "one crash at each store call of the turn, landed or not (UI answers %s)",
    async (ui) => {
      await checkEveryCrashPoint(ui);
    },
  );

  it("up to three crashes in a row, the processes taking over dying too (fast-check)", async () => {
    await checkCrashSequences(Number(process.env.GLOVE_FUZZ_RUNS ?? 300));
  });
});
