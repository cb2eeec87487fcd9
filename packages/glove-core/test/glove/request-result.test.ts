import { describe, expect, expectTypeOf, it } from "vitest";
import { z } from "zod";
import { MemoryStore, type ModelAnswer, type PlainRequestResult, type RequestUsage } from "glove-core";
import { makeGlove } from "../support/make-glove.js";

// processRequest's result has the final text and the whole request's usage, whichever kind it is.
describe("the result of a request", () => {
  it("types text and usage on both kinds of result, and keeps the old fields", async () => {
    const { glove } = makeGlove([{ text: "hi" }]);
    const result = await glove.processRequest("hello");
    expectTypeOf(result).toEqualTypeOf<PlainRequestResult>();
    const text: string = result.text;
    const usage: RequestUsage = result.usage;
    expectTypeOf(usage).toEqualTypeOf<{ tokens_in: number; tokens_out: number; model_calls: number }>();
    // The model's own result is still there, told apart as before.
    if ("messages" in result) expectTypeOf(result).toEqualTypeOf<ModelAnswer>();
    // @ts-expect-error a hook's message has no messages: the union must still be narrowed for them
    void result.messages;
    expect([text, usage.model_calls]).toEqual(["hi", 1]);
  });

  it("adds up the tokens of every model call of the request; tokens_in/out stay the last call's", async () => {
    const { glove } = makeGlove([
      { toolCalls: [{ name: "clock", input: {} }], tokens_in: 100, tokens_out: 10 },
      { toolCalls: [{ name: "clock", input: {} }], tokens_in: 200, tokens_out: 20 },
      { text: "It is noon.", tokens_in: 300, tokens_out: 30 },
      { text: "Still noon.", tokens_in: 7, tokens_out: 3 },
    ]);
    glove.fold({ name: "clock", description: "The time.", do: async () => "12:00" });
    const result = await glove.processRequest("What time is it?");
    expect(result.text).toBe("It is noon.");
    expect(result.usage).toEqual({ tokens_in: 600, tokens_out: 60, model_calls: 3 });
    expect("messages" in result && [result.tokens_in, result.tokens_out]).toEqual([300, 30]);
    // The next request counts from zero.
    expect((await glove.processRequest("And now?")).usage).toEqual({ tokens_in: 7, tokens_out: 3, model_calls: 1 });
  });

  it("counts compaction summaries and structured-output repairs", async () => {
    const { glove } = makeGlove(
      [
        { text: "not json", tokens_in: 10, tokens_out: 1 },
        { text: '{"hour":12}', tokens_in: 20, tokens_out: 2 },
        { text: "A summary.", tokens_in: 40, tokens_out: 4 },
      ],
      { compaction_config: { compaction_instructions: "Summarize.", max_turns: 2 } },
    );
    const result = await glove.processRequest("The hour, as JSON", { output: z.object({ hour: z.number() }) });
    expect(result.output.hour).toBe(12);
    expect(result.text).toBe('{"hour":12}');
    expect(result.usage).toEqual({ tokens_in: 70, tokens_out: 7, model_calls: 3 });
  });

  it("gives a hook's answer its text and a usage of no model call", async () => {
    const { glove, model } = makeGlove([{ text: "never" }]);
    glove.defineHook("closed", () => ({ shortCircuit: { message: { sender: "agent", text: "We're closed." } } }));
    const result = await glove.processRequest("/closed");
    expect(result.text).toBe("We're closed.");
    expect(result.usage).toEqual({ tokens_in: 0, tokens_out: 0, model_calls: 0 });
    expect(model.requests).toHaveLength(0);
  });

  it("continueTurn answers with text and usage too", async () => {
    const store = new MemoryStore("resume");
    await store.appendMessages([{ sender: "user", text: "hi" }]);
    const { glove } = makeGlove([{ text: "Hello.", tokens_in: 5, tokens_out: 2 }], { store });
    const answer = await glove.continueTurn();
    expectTypeOf(answer).toEqualTypeOf<ModelAnswer>();
    expect([answer.text, answer.usage]).toEqual(["Hello.", { tokens_in: 5, tokens_out: 2, model_calls: 1 }]);
  });
});
