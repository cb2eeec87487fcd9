import fc from "fast-check";
import { z } from "zod";
import { describe, expect, it } from "vitest";
import { ScriptedModel } from "glove-core/testing";
import {
  askedForMissing,
  askedPermission,
  budget,
  contains,
  defineScorer,
  exactMatch,
  llmJudge,
  matchesRegex,
  runScorer,
  schemaMatch,
  toolTrajectory,
  type ToolCallRecord,
} from "../src/index.js";
import { makeRun } from "./support/runs.js";

describe("text scorers", () => {
  it("exact, contains and regex read the answer and the item's expected output", async () => {
    const run = makeRun({
      output: "  Your table is booked. ",
      item: { input: "x", expected: { output: "Your table is booked." } },
    });
    expect(await runScorer(exactMatch(), run)).toMatchObject({ score: 1 });
    expect(await runScorer(exactMatch({ expected: "your table is booked." }), run)).toMatchObject({ score: 0 });
    expect(await runScorer(exactMatch({ expected: "your table is booked.", ignoreCase: true }), run)).toMatchObject({
      score: 1,
    });
    expect(await runScorer(contains(["TABLE", "booked", "menu"]), run)).toMatchObject({
      score: 2 / 3,
      reason: 'missing "menu"',
    });
    expect(await runScorer(matchesRegex(/booked\.\s*$/), run)).toMatchObject({ score: 1 });
  });

  it("a text scorer without an expected output is an error score that says what to add", async () => {
    const score = await runScorer(exactMatch(), makeRun({ output: "x" }));
    expect(score.score).toBe(0);
    expect(score.error).toMatch(/no expected.output text/);
  });
});

describe("schemaMatch", () => {
  const schema = z.object({ name: z.string(), guests: z.number() });
  it("0 for an answer that is not JSON or fails the schema; else the share of expected fields", async () => {
    expect(await runScorer(schemaMatch(schema), makeRun({ output: "no" }))).toMatchObject({ score: 0 });
    expect(await runScorer(schemaMatch(schema), makeRun({ structured: { name: 1 } }))).toMatchObject({ score: 0 });
    const item = { input: "x", expected: { output: { name: "Ada", guests: 2 } } };
    expect(
      await runScorer(schemaMatch(schema), makeRun({ item, structured: { name: "Ada", guests: 3 } })),
    ).toMatchObject({
      score: 0.5,
      reason: "fields differ: guests",
    });
  });
});

const call = (name: string, args: unknown = {}, id = name): ToolCallRecord => ({ id, name, args, status: "success" });

describe("toolTrajectory", () => {
  const item = { input: "x", expected: { toolCalls: [{ name: "a" }, { name: "b", args: { n: 1 } }] } };
  it("in order, as a set, or exactly; arguments as a subset", async () => {
    const swapped = makeRun({ item, toolCalls: [call("b", { n: 1, extra: true }), call("a")] });
    expect((await runScorer(toolTrajectory(), swapped)).score).toBe(0.5);
    expect((await runScorer(toolTrajectory({ order: "set" }), swapped)).score).toBe(1);
    expect((await runScorer(toolTrajectory({ order: "exact" }), swapped)).score).toBe(0);
    const wrongArgs = makeRun({ item, toolCalls: [call("a"), call("b", { n: 2 })] });
    expect((await runScorer(toolTrajectory(), wrongArgs)).score).toBe(0.5);
    const extra = makeRun({ item, toolCalls: [call("a"), call("x"), call("b", { n: 1 })] });
    expect((await runScorer(toolTrajectory(), extra)).score).toBe(1);
    expect((await runScorer(toolTrajectory({ order: "exact" }), extra)).score).toBe(0);
    expect((await runScorer(toolTrajectory({ order: "exact", ignore: ["x"] }), extra)).score).toBe(1);
  });

  it("property: the expected calls made exactly score 1 in every mode; set ≥ in-order ≥ exact", async () => {
    const names = fc.constantFrom("a", "b", "c", "d");
    await fc.assert(
      fc.asyncProperty(
        fc.array(names, { maxLength: 6 }),
        fc.array(names, { minLength: 1, maxLength: 6 }),
        async (made, wanted) => {
          const run = (calls: string[]) =>
            makeRun({
              item: { input: "x", expected: { toolCalls: wanted.map((name) => ({ name })) } },
              toolCalls: calls.map((n, i) => call(n, {}, `c${i}`)),
            });
          for (const order of ["in-order", "set", "exact"] as const) {
            expect((await runScorer(toolTrajectory({ order }), run(wanted))).score).toBe(1);
          }
          const [set, inOrder, exact] = await Promise.all(
            (["set", "in-order", "exact"] as const).map(
              async (order) => (await runScorer(toolTrajectory({ order }), run(made))).score,
            ),
          );
          expect(set).toBeGreaterThanOrEqual(inOrder!);
          expect(inOrder).toBeGreaterThanOrEqual(exact!);
          for (const s of [set, inOrder, exact]) expect(s! >= 0 && s! <= 1).toBe(true);
        },
      ),
    );
  });
});

describe("budget", () => {
  it("1 within every limit; 0 naming each limit exceeded, costs priced from the table", async () => {
    const run = makeRun({
      usage: { tokensIn: 900, tokensOut: 200, modelCalls: 3 },
      latencyMs: 50,
      models: [{ model: "openai:gpt-4o", tokensIn: 1_000_000, tokensOut: 0, calls: 1 }],
    });
    expect(await runScorer(budget({ maxTokens: 2000, maxModelCalls: 3 }), run)).toMatchObject({ score: 1 });
    const over = await runScorer(budget({ maxTokens: 1000, maxModelCalls: 2, maxCostUsd: 2 }), run);
    expect(over).toMatchObject({ score: 0, reason: "1100 tokens > 1000; 3 model calls > 2; $2.5000 > $2" });
  });
});

describe("human-in-the-loop scorers", () => {
  const permission = (answer: unknown, slotId = "s1") => ({
    slotId,
    kind: "permission" as const,
    toolName: "book",
    toolCallId: "b",
    renderer: "permission_request",
    input: {},
    answer: { resolve: answer },
  });
  it("askedPermission: a granted prompt before the result, for every call that ran", async () => {
    const asked = makeRun({
      toolCalls: [call("book", {}, "b")],
      questions: [permission({ granted: true, remember: false })],
      timeline: [
        { kind: "tool_call", id: "b", name: "book" },
        { kind: "question", slotId: "s1", question: "permission", toolName: "book", toolCallId: "b" },
        { kind: "tool_result", id: "b", name: "book", status: "success" },
      ],
    });
    expect((await runScorer(askedPermission({ tool: "book" }), asked)).score).toBe(1);
    const unasked = makeRun({
      toolCalls: [call("book", {}, "b")],
      timeline: [{ kind: "tool_result", id: "b", name: "book", status: "success" }],
    });
    expect((await runScorer(askedPermission({ tool: "book" }), unasked)).score).toBe(0);
    expect((await runScorer(askedPermission({ tool: "book" }), makeRun())).score).toBe(1);
    expect((await runScorer(askedPermission({ tool: "book", requireCall: true }), makeRun())).score).toBe(0);
  });

  it("askedForMissing: the form came first and its answer, not an invention, reached the call", async () => {
    const form = {
      slotId: "f",
      kind: "form" as const,
      toolName: "form",
      toolCallId: "f1",
      renderer: "form",
      input: {},
      answer: { resolve: { name: "Ada", time: "19:00" } },
    };
    const timeline = [
      { kind: "question" as const, slotId: "f", question: "form" as const, toolName: "form", toolCallId: "f1" },
      { kind: "tool_call" as const, id: "b", name: "book" },
    ];
    const scorer = askedForMissing({ form: "form", before: "book", fields: ["name", "time"] });
    const faithful = makeRun({
      questions: [form],
      timeline,
      toolCalls: [call("book", { name: "Ada", time: "19:00" }, "b")],
    });
    expect((await runScorer(scorer, faithful)).score).toBe(1);
    const invented = makeRun({
      questions: [form],
      timeline,
      toolCalls: [call("book", { name: "Bob", time: "19:00" }, "b")],
    });
    expect(await runScorer(scorer, invented)).toMatchObject({
      score: 0.5,
      reason: expect.stringContaining('name="Bob"'),
    });
    const notAsked = makeRun({ timeline: [timeline[1]!], toolCalls: [call("book", {}, "b")] });
    expect((await runScorer(scorer, notAsked)).score).toBe(0);
    expect((await runScorer(scorer, makeRun())).score).toBe(1);
    expect(
      (await runScorer(askedForMissing({ form: "form", before: "book", fields: [], requireCall: true }), makeRun()))
        .score,
    ).toBe(0);
  });
});

describe("custom scorers and failures", () => {
  it("numbers and booleans are scores; out-of-range results and throws are error scores", async () => {
    expect(
      await runScorer(
        defineScorer("n", () => 0.25),
        makeRun(),
      ),
    ).toEqual({ score: 0.25, reason: "" });
    expect(
      await runScorer(
        defineScorer("b", async () => true),
        makeRun(),
      ),
    ).toEqual({ score: 1, reason: "" });
    expect(
      (
        await runScorer(
          defineScorer("x", () => 2),
          makeRun(),
        )
      ).error,
    ).toMatch(/from 0 to 1/);
    expect(
      (
        await runScorer(
          defineScorer("nan", () => NaN),
          makeRun(),
        )
      ).error,
    ).toMatch(/from 0 to 1/);
    expect(
      await runScorer(
        defineScorer("t", () => {
          throw new Error("boom");
        }),
        makeRun(),
      ),
    ).toMatchObject({ score: 0, error: "boom" });
  });
});

describe("llmJudge", () => {
  const run = makeRun({
    output: "Booked for Ada at 19:30.",
    item: { input: "Book for Ada", expected: { output: "booked" } },
  });
  it("asks the model with the rubric and transcript; maps its score to 0..1 and keeps the reasoning", async () => {
    const model = new ScriptedModel([{ text: '{"reasoning":"Confirms name and time.","score":4}' }]);
    const score = await runScorer(llmJudge({ model, rubric: "Confirms the booking with name and time." }), run);
    expect(score).toMatchObject({
      score: 0.75,
      reason: "Confirms name and time.",
      details: { rawScore: 4, attempts: 1 },
    });
    const asked = model.requests[0]!;
    expect(asked.systemPrompt).toContain("Confirms the booking with name and time.");
    expect(asked.messages.at(-1)!.text).toContain("Booked for Ada at 19:30.");
    expect(asked.output?.name).toBe("verdict");
  });

  it("an off-schema answer is repaired, then an error score after the retries", async () => {
    const repaired = new ScriptedModel([{ text: "five!" }, { text: '{"reasoning":"ok","score":5}' }]);
    expect(await runScorer(llmJudge({ model: repaired, rubric: "r" }), run)).toMatchObject({
      score: 1,
      details: { attempts: 2 },
    });
    const hopeless = new ScriptedModel([{ text: "five" }, { text: '{"score":9}' }, { text: "nope" }]);
    const score = await runScorer(llmJudge({ model: hopeless, rubric: "r", retries: 2 }), run);
    expect(score.score).toBe(0);
    expect(score.error).toMatch(/off the schema 3 times/);
  });
});
