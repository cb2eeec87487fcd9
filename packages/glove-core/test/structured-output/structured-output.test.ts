import { describe, expect, expectTypeOf, it } from "vitest";
import { z } from "zod";
import { z as z3 } from "zod/v3";
import {
  AbortError,
  ConfigurationError,
  StructuredOutputError,
  type Message,
  type PlainRequestResult,
  type PromptRequest,
} from "glove-core";
import { ScriptedModel, type ScriptedStep } from "glove-core/testing";
import { expectValidHistory, makeGlove } from "../support/make-glove.js";

/** A scripted model that claims a native JSON-schema mode, like the built-in adapters. */
class NativeScriptedModel extends ScriptedModel {
  readonly supportsStructuredOutput = true;
}

const Weather = z.object({ city: z.string(), celsius: z.number(), sky: z.enum(["clear", "cloudy", "rain"]) });
const good = JSON.stringify({ city: "Lisbon", celsius: 21, sky: "clear" });

function nativeGlove(steps: ScriptedStep[]) {
  const model = new NativeScriptedModel(steps);
  return { ...makeGlove([], { model }), model };
}

/** Senders alternate user/agent (tool-result carriers count as user turns) and every call has its result. */
async function expectAlternating(messages: Message[]): Promise<void> {
  for (let i = 1; i < messages.length; i++) expect(messages[i]!.sender).not.toBe(messages[i - 1]!.sender);
}

describe("processRequest(text, { output })", () => {
  it("parses the final answer with the schema and types `output` from it", async () => {
    const { glove, model } = nativeGlove([{ text: good }]);
    const result = await glove.processRequest("Weather in Lisbon?", { output: Weather });
    expectTypeOf(result.output).toEqualTypeOf<{ city: string; celsius: number; sky: "clear" | "cloudy" | "rain" }>();
    expect(result.output).toEqual({ city: "Lisbon", celsius: 21, sky: "clear" });
    expect(result.attempts).toBe(1);
    expect(result.messages.at(-1)!.text).toBe(good);
    expect(model.requests).toHaveLength(1);
    const output = model.requests[0]!.output!;
    expect(output.name).toBe("response");
    expect(output.schema).toMatchObject({
      type: "object",
      required: ["city", "celsius", "sky"],
      additionalProperties: false,
    });
    expect(output.schema).not.toHaveProperty("$schema");
  });

  it("keeps the old call forms and their result type", async () => {
    const { glove } = makeGlove([{ text: "a" }, { text: "b" }, { text: "c" }]);
    const plain = glove.processRequest("x");
    const withSignal = glove.processRequest("y", new AbortController().signal);
    const withOptions = glove.processRequest("z", { signal: new AbortController().signal });
    expectTypeOf(plain).toEqualTypeOf<Promise<PlainRequestResult>>();
    expectTypeOf(withSignal).toEqualTypeOf<Promise<PlainRequestResult>>();
    expectTypeOf(withOptions).toEqualTypeOf<Promise<PlainRequestResult>>();
    const results = await Promise.all([plain, withSignal, withOptions]);
    expect(results.map((r) => r.text)).toEqual(["a", "b", "c"]);
    expect(results.every((r) => !("output" in r))).toBe(true);
  });

  it("applies the schema's defaults and transforms (the output side)", async () => {
    const schema = z.object({
      name: z.string().transform((s) => s.toUpperCase()),
      tags: z.array(z.string()).default([]),
    });
    const { glove } = nativeGlove([{ text: '{"name":"glove"}' }]);
    const { output } = await glove.processRequest("go", { output: schema });
    expectTypeOf(output).toEqualTypeOf<{ name: string; tags: string[] }>();
    expect(output).toEqual({ name: "GLOVE", tags: [] });
  });

  it("sets request.output on every model call of the request (tool turns too) and on no other request", async () => {
    const { glove, model } = nativeGlove([
      { toolCalls: [{ name: "lookup", input: { city: "Lisbon" } }] },
      { text: good },
      { text: "plain answer" },
    ]);
    glove.fold({
      name: "lookup",
      description: "weather lookup",
      inputSchema: z.object({ city: z.string() }),
      do: async () => "21C, clear",
    });
    await glove.processRequest("Weather?", {
      output: Weather,
      outputName: "weather",
      outputDescription: "Current weather",
    });
    await glove.processRequest("thanks");
    expect(model.requests.map((r) => r.output?.name)).toEqual(["weather", "weather", undefined]);
    expect(model.requests[2]).not.toHaveProperty("output");
    expect(model.requests[0]!.output!.description).toBe("Current weather");
  });

  it("native adapters get no schema instruction; others get it in the system prompt of that request only", async () => {
    const native = nativeGlove([{ text: good }]);
    await native.glove.processRequest("w", { output: Weather });
    expect(native.model.requests[0]!.systemPrompt).not.toContain("JSON Schema");

    const { glove, model } = makeGlove([{ text: good }, { text: "bye" }]);
    await glove.processRequest("w", { output: Weather });
    await glove.processRequest("bye");
    const first = model.requests[0]!.systemPrompt!;
    expect(first).toContain('JSON Schema named "response"');
    expect(first).toContain(JSON.stringify(model.requests[0]!.output!.schema));
    expect(model.requests[1]!.systemPrompt).not.toContain("JSON Schema");
    expect(model.requests[0]!.output).toBeDefined();
  });

  it("accepts a fenced or prefixed answer in the fallback path", async () => {
    const { glove } = makeGlove([{ text: "Here you go:\n```json\n" + good + "\n```" }]);
    const { output } = await glove.processRequest("w", { output: Weather });
    expect(output.city).toBe("Lisbon");
  });

  it("repairs a bad answer once by showing the model the issues", async () => {
    const { glove, model, store } = nativeGlove([
      { text: '{"city":"Lisbon","celsius":"warm","sky":"clear"}' },
      { text: good },
    ]);
    const result = await glove.processRequest("w", { output: Weather });
    expect(result.output.celsius).toBe(21);
    expect(result.attempts).toBe(2);
    const repair = model.requests[1]!.messages.at(-1)!;
    expect(repair.sender).toBe("user");
    expect(repair.text).toContain('"response" JSON schema');
    expect(repair.text).toMatch(/- celsius: .*number/i);
    expect(model.requests[1]!.output!.name).toBe("response");
    const messages = await store.getMessages();
    expect(messages.map((m) => m.sender)).toEqual(["user", "agent", "user", "agent"]);
    await expectValidHistory(store);
  });

  it("fails with StructuredOutputError after the repair turns, leaving a valid conversation that goes on", async () => {
    const { glove, model, store } = nativeGlove([{ text: "not json" }, { text: '{"city": 3}' }, { text: "fine" }]);
    let error: unknown;
    try {
      await glove.processRequest("w", { output: Weather });
    } catch (e) {
      error = e;
    }
    expect(StructuredOutputError.isInstance(error)).toBe(true);
    const e = error as StructuredOutputError;
    expect(e.code).toBe("GLOVE_STRUCTURED_OUTPUT");
    expect(e.reason).toBe("schema_mismatch");
    expect(e.rawText).toBe('{"city": 3}');
    expect(e.attempts).toBe(2);
    expect(e.issues.map((i) => i.path.join("."))).toEqual(["city", "celsius", "sky"]);
    expect(e.message).toContain("outputRepairs");
    expect(e.message).toContain("conversation is intact");
    // The first repair turn told the model the answer was not JSON at all.
    expect(model.requests[1]!.messages.at(-1)!.text).toContain("not valid JSON");
    await expectAlternating(await store.getMessages());
    await expectValidHistory(store);
    const next = await glove.processRequest("ok then");
    expect("messages" in next && next.messages[0]!.text).toBe("fine");
  });

  it("outputRepairs: 0 fails at the first bad answer; 2 allows two repairs", async () => {
    const none = nativeGlove([{ text: "{}" }]);
    const error = await none.glove.processRequest("w", { output: Weather, outputRepairs: 0 }).catch((e: unknown) => e);
    expect(StructuredOutputError.isInstance(error) && error.attempts).toBe(1);
    expect(none.model.requests).toHaveLength(1);

    const two = nativeGlove([{ text: "{}" }, { text: "[]" }, { text: good }]);
    const result = await two.glove.processRequest("w", { output: Weather, outputRepairs: 2 });
    expect(result.attempts).toBe(3);
  });

  it("does not repair a refusal", async () => {
    const model = new NativeScriptedModel([]);
    model.prompt = async (request: PromptRequest) => {
      void request;
      return {
        messages: [{ sender: "agent", text: "I can't help with that.", is_refusal: true }],
        tokens_in: 1,
        tokens_out: 1,
      };
    };
    const { glove, store } = makeGlove([], { model });
    const error = await glove.processRequest("w", { output: Weather }).catch((e: unknown) => e);
    expect(StructuredOutputError.isInstance(error)).toBe(true);
    expect((error as StructuredOutputError).reason).toBe("refusal");
    expect((error as StructuredOutputError).rawText).toBe("I can't help with that.");
    expect(await store.getMessages()).toHaveLength(2);
  });

  it("an abort during a structured request is an AbortError and the history stays valid", async () => {
    const controller = new AbortController();
    const model = new NativeScriptedModel([{ toolCalls: [{ name: "slow", input: {} }] }, { text: good }]);
    const { glove, store } = makeGlove([], { model });
    glove.fold({
      name: "slow",
      description: "slow",
      do: async () => {
        controller.abort();
        return "done";
      },
    });
    const error = await glove
      .processRequest("w", { output: Weather, signal: controller.signal })
      .catch((e: unknown) => e);
    expect(AbortError.isInstance(error)).toBe(true);
    await expectValidHistory(store);
  });

  it("a hook that answers instead of the model must answer with the JSON", async () => {
    const { glove, model } = nativeGlove([]);
    glove.defineHook("canned", async () => ({ shortCircuit: { message: { sender: "agent", text: good } } }));
    glove.defineHook("rude", async () => ({ shortCircuit: { message: { sender: "agent", text: "no" } } }));
    const { output } = await glove.processRequest("/canned", { output: Weather });
    expect(output.sky).toBe("clear");
    const error = await glove.processRequest("/rude", { output: Weather }).catch((e: unknown) => e);
    expect(StructuredOutputError.isInstance(error) && error.reason).toBe("invalid_json");
    expect(model.requests).toHaveLength(0);
  });

  it("refuses bad options with a ConfigurationError before anything is stored", async () => {
    const { glove, store, model } = nativeGlove([{ text: good }]);
    const attempts: Array<Promise<unknown>> = [
      glove.processRequest("w", { output: z3.object({ a: z3.string() }) as never }),
      glove.processRequest("w", { output: { type: "object" } as never }),
      glove.processRequest("w", { output: Weather, outputName: "has spaces" }),
      glove.processRequest("w", { output: Weather, outputRepairs: -1 }),
      glove.processRequest("w", { output: Weather, outputRepairs: 1.5 }),
      glove.processRequest("w", 42 as never),
      glove.processRequest("w", { signal: "nope" as never }),
    ];
    const errors = await Promise.all(attempts.map((p) => p.catch((e: unknown) => e)));
    for (const error of errors) expect(ConfigurationError.isInstance(error)).toBe(true);
    expect((errors[0] as Error).message).toContain("zod 3");
    expect((errors[2] as Error).message).toContain("outputName");
    expect(await store.getMessages()).toHaveLength(0);
    expect(model.requests).toHaveLength(0);
  });
});
