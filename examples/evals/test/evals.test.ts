import { describe, expect, it } from "vitest";
import { compareExperiments, memoryEvalStorage } from "glove-evals";
import { skipsTheForm } from "../src/agent.js";
import { evaluateBistro } from "../src/evaluation.js";

describe("evaluating the bistro's reservation agent", () => {
  it("the agent asks before booking and books what the form returned", async () => {
    const { experiment, results, bookings } = await evaluateBistro(memoryEvalStorage());
    const scores = experiment.summary!.scores;
    expect(scores["asked_permission:book_table"]!.mean).toBe(1);
    expect(scores["asked_for_missing:reservation_form"]!.mean).toBe(1);
    expect(scores["tool_trajectory"]!.mean).toBe(1);
    // The guest who refused permission got no booking; the two others did, twice each (two repetitions).
    expect(bookings.sort()).toEqual(["Ada ×2 at 19:30", "Ada ×2 at 19:30", "Grace ×6 at 20:00", "Grace ×6 at 20:00"]);
    const refused = results.find((r) => r.itemId === "changes-mind")!;
    expect(refused.output).toBe("I did not book the table.");
  });

  it("a variant that skips the form is caught: invented details, a lower trajectory score, a regression", async () => {
    const storage = memoryEvalStorage();
    const base = await evaluateBistro(storage);
    const variant = await evaluateBistro(storage, { name: "skips-the-form", model: () => skipsTheForm() });
    const scores = variant.experiment.summary!.scores;
    // glove-core still asks for permission before book_table, but the details were made up.
    expect(scores["asked_permission:book_table"]!.mean).toBe(1);
    expect(scores["asked_for_missing:reservation_form"]!.mean).toBeLessThan(0.5);
    const comparison = compareExperiments(base, variant);
    expect(comparison.items[0]!.worst).toBeLessThan(0);
    expect(comparison.scores["asked_for_missing:reservation_form"]!.diff).toBeLessThan(0);
  });
});
