import { describe, expect, it } from "vitest";
import type { PromptRequest } from "glove-core";
import { ScriptedModel, type ScriptedTurn } from "glove-core/testing";
import {
  askedForMissing,
  askedPermission,
  defineDataset,
  memoryEvalStorage,
  modelPerson,
  runExperiment,
  type ItemRun,
} from "../src/index.js";
import { bistroAgent } from "./support/bistro.js";

const lastText = (request: PromptRequest) => request.messages.at(-1)!.text;

/** Runs the bistro agent once on `input` with a scripted model playing the person; returns the run and the person's models. */
async function withPerson(answer: (ask: string) => string, item: { input: string; persona?: string }) {
  const models: ScriptedModel[] = [];
  const person = modelPerson({
    model: () => {
      const model = new ScriptedModel([], {
        fallback: (request): ScriptedTurn => ({ text: answer(lastText(request)) }),
      });
      models.push(model);
      return model;
    },
    persona: "Ada, who books for two at half past seven.",
  });
  const runs: ItemRun[] = [];
  const { results } = await runExperiment({
    dataset: defineDataset("person", [{ id: "book", ...item }]),
    agent: bistroAgent(),
    storage: memoryEvalStorage(),
    person,
    scorers: [
      askedPermission({ tool: "book_table" }),
      askedForMissing({ form: "reservation_form", before: "book_table", fields: ["name", "guests", "time"] }),
    ],
    onResult: (_result, run) => runs.push(run),
  });
  return { result: results[0]!, run: runs[0]!, models };
}

describe("modelPerson", () => {
  it("answers the form with JSON and the permission prompt with yes; a refused answer is retried with the reasons", async () => {
    const { result, run, models } = await withPerson(
      (ask) => {
        if (ask.includes("permission")) return "Yes, go ahead.";
        // First a wrong type (refused by the tool's resolveSchema), then a valid answer in a code fence.
        if (ask.includes("was refused")) return '```json\n{"name":"Ada","guests":2,"time":"19:30"}\n```';
        return '{"name":"Ada","guests":"two","time":"19:30"}';
      },
      { input: "Book a table please" },
    );
    expect(result.status).toBe("done");
    expect(result.output).toBe("Your table is booked: GB-1.");
    expect(run.questions.map((q) => [q.kind, q.toolName, q.answer])).toEqual([
      ["form", "reservation_form", { resolve: { name: "Ada", guests: 2, time: "19:30" } }],
      ["permission", "book_table", { resolve: true }],
    ]);
    expect(run.toolCalls.find((c) => c.name === "book_table")!.args).toEqual({ name: "Ada", guests: 2, time: "19:30" });
    expect(result.scores["asked_permission:book_table"]!.score).toBe(1);
    expect(result.scores["asked_for_missing:reservation_form"]!.score).toBe(1);

    // One model for the run, in character, told what the user asked, shown each question once more when refused.
    expect(models).toHaveLength(1);
    const requests = models[0]!.requests;
    expect(requests).toHaveLength(3);
    expect(requests[0]!.systemPrompt).toContain("Persona: Ada, who books for two at half past seven.");
    expect(requests[0]!.systemPrompt).toContain("- Book a table please");
    expect(lastText(requests[0]!)).toContain("reservation_form");
    expect(lastText(requests[0]!)).toContain("Your booking details?");
    expect(lastText(requests[1]!)).toMatch(/Your last answer was refused: .*guests/);
    expect(lastText(requests[2]!)).toMatch(
      /permission to run book_table with \{"name":"Ada","guests":2,"time":"19:30"\}/,
    );
  });

  it("no to the permission prompt denies the call; an answer without JSON refuses the form; an item's persona wins", async () => {
    const denied = await withPerson(
      (ask) => (ask.includes("permission") ? "no" : '{"name":"Bo","guests":4,"time":"20:00"}'),
      { input: "Book a table please" },
    );
    expect(denied.run.questions.map((q) => q.answer)).toEqual([
      { resolve: { name: "Bo", guests: 4, time: "20:00" } },
      { resolve: false },
    ]);
    expect(denied.result.output).toBe("I could not book it.");
    expect(denied.run.toolCalls.find((c) => c.name === "book_table")!.status).not.toBe("success");

    const prose = await withPerson(() => "I would rather not say.", {
      input: "Book a table please",
      persona: "Someone in a hurry.",
    });
    expect(prose.run.questions).toHaveLength(1);
    expect(prose.run.questions[0]!.answer).toEqual({
      reject: "The person answered without JSON: I would rather not say.",
    });
    expect(prose.result.output).toBe("No booking then.");
    expect(prose.models[0]!.requests[0]!.systemPrompt).toContain("Persona: Someone in a hurry.");
    expect(prose.models[0]!.requests[0]!.systemPrompt).not.toContain("Ada");
  });
});
