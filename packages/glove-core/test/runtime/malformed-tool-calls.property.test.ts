/**
 * Property: whatever JSON a model answer holds in its tool calls — served by a fake
 * OpenAI-compatible provider over HTTP (streamed or whole), or returned by a custom adapter in its
 * result and events — a whole Glove either completes the run or rejects with a ProviderError, never
 * a TypeError, and the store's history stays one a provider accepts.
 */
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { ProviderError, type Message, type ModelAdapter, type ModelPromptResult } from "glove-core";
import { OpenAICompatAdapter } from "glove-core/models/openai-compat";
import { json, sse, startFakeServer, type FakeServer, type Handler } from "../models/fake-server.js";
import { makeGlove } from "../support/make-glove.js";
import { expectStoreHistoryValid } from "../support/valid-history.js";
import { SLOW_WORK_MS } from "../../../../test-support/timeouts.js";

const chunk = (delta: Record<string, unknown>, finish: string | null = null) => ({
  choices: [{ index: 0, delta, finish_reason: finish }],
});
const textAnswer = (stream: boolean): Handler =>
  stream
    ? sse([chunk({ content: "done" }), chunk({}, "stop")], { done: true })
    : json(200, { choices: [{ index: 0, message: { role: "assistant", content: "done" }, finish_reason: "stop" }] });

/** A value that is usually close to a tool call (so runs reach the runtime), often not quite. */
const maybe = <T>(arb: fc.Arbitrary<T>) =>
  fc.oneof({ weight: 3, arbitrary: arb }, { weight: 1, arbitrary: fc.jsonValue() });
const wireCall = fc.oneof(
  { weight: 1, arbitrary: fc.jsonValue() },
  {
    weight: 3,
    arbitrary: fc.record(
      {
        index: maybe(fc.nat(2)),
        id: maybe(fc.constantFrom("call_a", "call_b", "")),
        type: fc.constant("function"),
        function: maybe(
          fc.record(
            {
              name: maybe(fc.constantFrom("echo", "", "unknown_tool")),
              arguments: maybe(fc.oneof(fc.constant('{"text":"hi"}'), fc.json())),
            },
            { requiredKeys: [] },
          ),
        ),
      },
      { requiredKeys: [] },
    ),
  },
);
const runtimeCall = fc.oneof(
  { weight: 1, arbitrary: fc.jsonValue() },
  {
    weight: 3,
    arbitrary: fc.record(
      {
        tool_name: maybe(fc.constantFrom("echo", "", "unknown_tool")),
        input_args: maybe(fc.constant({ text: "hi" })),
        id: maybe(fc.constantFrom("c1", "c1", "")),
      },
      { requiredKeys: [] },
    ),
  },
);

function gloveOn(model: ModelAdapter) {
  const made = makeGlove([], { model });
  made.glove.fold({
    name: "echo",
    description: "Echoes its text.",
    inputSchema: z.object({ text: z.string() }),
    do: async ({ text }) => text,
  });
  return made;
}

/** Runs one request; a failure must be a ProviderError with nothing of the answer stored, and the history must stay valid. */
async function checkRun(model: ModelAdapter): Promise<"ok" | "provider-error"> {
  const { glove, store } = gloveOn(model);
  const outcome = await glove.processRequest("go").then(
    () => "ok" as const,
    (error: unknown) => error,
  );
  await expectStoreHistoryValid(store);
  if (outcome === "ok") return outcome;
  expect(ProviderError.isInstance(outcome), String((outcome as Error | undefined)?.stack ?? outcome)).toBe(true);
  expect((await store.getMessages()).map((m) => m.sender)).toEqual(["user"]);
  return "provider-error";
}

let server: FakeServer;
let first: Handler = textAnswer(true);
let then: Handler = textAnswer(true);
beforeAll(async () => {
  // Every request of a run after the first gets the text answer, so a valid run ends after its tools.
  server = await startFakeServer((req, res, index) =>
    (req.body?.messages?.at(-1)?.content === "go" ? first : then)(req, res, index),
  );
});
afterAll(async () => {
  await server.close();
});

describe("tool calls of any JSON shape (fast-check)", () => {
  for (const stream of [true, false]) {
    it(
      `from an OpenAI-compatible provider over HTTP, ${stream ? "streamed" : "whole"}`,
      async () => {
        const seen = new Set<string>();
        await fc.assert(
          fc.asyncProperty(fc.array(wireCall, { minLength: 1, maxLength: 3 }), async (calls) => {
            then = textAnswer(stream);
            first = stream
              ? sse([chunk({ content: "", tool_calls: calls }), chunk({}, "tool_calls")], { done: true })
              : json(200, {
                  choices: [
                    {
                      index: 0,
                      message: { role: "assistant", content: "", tool_calls: calls },
                      finish_reason: "tool_calls",
                    },
                  ],
                });
            seen.add(
              await checkRun(
                new OpenAICompatAdapter({
                  model: "m",
                  baseURL: `${server.url}/v1`,
                  apiKey: "k",
                  stream,
                  maxRetries: 0,
                }),
              ),
            );
          }),
          { numRuns: 150 },
        );
        // The generator reaches both outcomes.
        expect([...seen].sort()).toEqual(["ok", "provider-error"]);
      },
      SLOW_WORK_MS,
    );
  }

  it(
    "from a custom adapter, in its result and in its events",
    async () => {
      const seen = new Set<string>();
      await fc.assert(
        fc.asyncProperty(maybe(fc.array(runtimeCall, { maxLength: 3 })), fc.boolean(), async (calls, announce) => {
          let prompts = 0;
          const model: ModelAdapter = {
            name: "custom",
            setSystemPrompt() {},
            async prompt(_request, notify): Promise<ModelPromptResult> {
              if (prompts++ > 0) return { messages: [{ sender: "agent", text: "done" }], tokens_in: 1, tokens_out: 1 };
              if (announce) await notify("model_response_complete", { text: "", tool_calls: calls as never });
              return {
                messages: [{ sender: "agent", text: "", tool_calls: calls } as Message],
                tokens_in: 1,
                tokens_out: 1,
              };
            },
          };
          seen.add(await checkRun(model));
        }),
        { numRuns: 300 },
      );
      expect([...seen].sort()).toEqual(["ok", "provider-error"]);
    },
    SLOW_WORK_MS,
  );
});
