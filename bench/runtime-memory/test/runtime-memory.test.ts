import { describe, expect, it } from "vitest";
import { runtimeMemory } from "../measure.js";

// Checks the benchmark measures what it says (not timing, not heap thresholds: those are noisy).
describe("runtime-memory bench", () => {
  it("keeps at most maxOpen Gloves while every conversation runs, and samples at the requested points", async () => {
    const samples = await runtimeMemory({ conversations: 60, sampleEvery: 20, maxOpen: 5 });
    expect(samples.map((s) => s.conversations)).toEqual([0, 20, 40, 60]);
    expect(samples.slice(1).every((s) => s.open <= 5 && s.heapMb > 0)).toBe(true);
    const unbounded = await runtimeMemory({ conversations: 40, sampleEvery: 20, maxOpen: undefined });
    expect(unbounded.at(-1)!.open).toBe(40);
  });
});
