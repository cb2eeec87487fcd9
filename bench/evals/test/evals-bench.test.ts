/**
 * The glove-evals overhead bench, tiny and in-process: both sides run every item and agree on the
 * answers, the report has its medians (not timing), and a failing run stops it without a ratio.
 */
import { describe, expect, it } from "vitest";
import { directPass, evalsPass } from "../measure.js";
import { expectedAnswer, lookupAgent, lookupDataset } from "../agent.js";
import { measureOverhead } from "../overhead.js";
import { z } from "zod";
import type { IGloveBuilder } from "glove-core";
import type { AgentFactory } from "glove-server";

describe("evals overhead bench", () => {
  it("runs both sides over every item × repetition and reports medians over the timed rounds", async () => {
    const seen: number[] = [];
    const report = await measureOverhead({
      items: 12,
      repetitions: 2,
      concurrency: 3,
      rounds: 2,
      onRound: (r) => seen.push(r.round),
    });
    expect(report.failures).toEqual([]);
    expect(report.ok).toBe(true);
    expect(seen).toEqual([0, 1, 2]);
    expect(report.rounds.map((r) => r.first)).toEqual(["direct", "evals", "direct"]);
    for (const round of report.rounds) {
      expect(round.direct).toMatchObject({ side: "direct", runs: 24, failures: [] });
      expect(round.evals).toMatchObject({ side: "evals", runs: 24, failures: [] });
    }
    const m = report.median!;
    for (const value of [m.directWallUsPerRun, m.evalsWallUsPerRun, m.wallRatio, m.cpuRatio]) {
      expect(Number.isFinite(value) && value > 0).toBe(true);
    }
  });

  it("a wrong answer fails the pass on either side", async () => {
    const dataset = lookupDataset(3);
    const wrong = (id: string) => (id === "item-1" ? "something else" : expectedAnswer(Number(id.slice(5))));
    const options = { dataset, agent: lookupAgent, expected: wrong, repetitions: 1, concurrency: 2 };
    expect((await directPass(options)).failures).toEqual(['item-1#0: answered "The answer is value-of-k1."']);
    const broken = lookupDataset(2);
    const item = broken.items[0]!;
    (item.expected as { output: string }).output = "not what the agent says";
    const evals = await evalsPass({ ...options, dataset: broken });
    expect(evals.failures).toHaveLength(1);
    expect(evals.failures[0]).toMatch(/^item-0#0: exact_match 0/);
  });

  it("a run that fails stops the bench at that round: no further rounds, no medians", async () => {
    // lookupAgent with a tool that gets one key wrong.
    const wrongOnK3: AgentFactory = (context) =>
      (lookupAgent(context) as IGloveBuilder).fold({
        name: "lookup",
        description: "Looks a key up.",
        inputSchema: z.object({ key: z.string() }),
        replace: true,
        do: async ({ key }) => ({ status: "success", data: key === "k3" ? "wrong" : `value-of-${key}` }),
      });
    const report = await measureOverhead({ items: 5, repetitions: 1, concurrency: 2, rounds: 3, agent: wrongOnK3 });
    expect(report.ok).toBe(false);
    expect(report.median).toBeNull();
    expect(report.rounds).toEqual([]);
    expect(report.failures).toEqual([
      'round 0: direct item-3#0: answered "The answer is wrong."',
      'round 0: evals item-3#0: exact_match 0 (expected "The answer is value-of-k3.", got "The answer is wrong.")',
    ]);
  });
});
