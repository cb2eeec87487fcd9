/**
 * Edge cases of provider extras, refusals and usage that no recording shows, on hand-written
 * bodies (the recorded fixtures are in ./recorded/openai-compat).
 */
import { describe, expect, it } from "vitest";
import { ProviderError, type SubscriberEvent } from "glove-core";
import { OpenAICompatAdapter } from "glove-core/models/openai-compat";
import { RecordingSubscriber } from "glove-core/testing";
import { byteByByte, replayFetch, type RecordedResponse } from "./recorded/support/index.js";

const sseBody = (chunks: unknown[]): RecordedResponse => ({
  status: 200,
  headers: { "content-type": "text/event-stream" },
  body: new TextEncoder().encode(chunks.map((c) => `data: ${JSON.stringify(c)}\n\n`).join("") + "data: [DONE]\n\n"),
});
const delta = (d: Record<string, unknown>, finish: string | null = null) => ({
  choices: [{ index: 0, delta: d, finish_reason: finish }],
});

async function run(chunks: unknown[]) {
  const { fetch, script } = replayFetch([{ response: sseBody(chunks), chunking: byteByByte }]);
  const adapter = new OpenAICompatAdapter({ model: "m", baseURL: "http://replay.invalid/v1", fetch, maxRetries: 0 });
  const rec = new RecordingSubscriber();
  const result = await adapter.prompt({ messages: [{ sender: "user", text: "q" }] }, (t, d) => rec.record(t, d));
  return { result, events: rec.events as SubscriberEvent[], script, adapter };
}

describe("provider extras across stream deltas", () => {
  it("merges an extra split over several deltas of one call, object by object", async () => {
    const { result } = await run([
      delta({
        tool_calls: [
          {
            index: 0,
            id: "c1",
            type: "function",
            function: { name: "f", arguments: "" },
            extra_content: { google: { a: 1 } },
          },
        ],
      }),
      delta({
        tool_calls: [
          { index: 0, function: { arguments: "{}", strict: true }, extra_content: { google: { b: 2 } }, vendor: "x" },
        ],
      }),
      delta({ tool_calls: [{ index: 0, vendor: "y" }] }, "tool_calls"),
    ]);
    expect(result.messages[0]!.tool_calls).toEqual([
      {
        id: "c1",
        tool_name: "f",
        input_args: {},
        provider_extras: { extra_content: { google: { a: 1, b: 2 } }, vendor: "y", function: { strict: true } },
      },
    ]);
  });

  it("keeps each parallel call's extras on that call only", async () => {
    const { result } = await run([
      delta({ tool_calls: [{ index: 0, id: "a", function: { name: "f", arguments: "{}" }, sig: "A" }] }),
      delta({ tool_calls: [{ index: 1, id: "b", function: { name: "g", arguments: "{}" } }] }, "tool_calls"),
    ]);
    expect(result.messages[0]!.tool_calls!.map((c) => c.provider_extras)).toEqual([{ sig: "A" }, undefined]);
  });
});

describe("refusals", () => {
  it("content then refusal: both are the text, in arrival order, and the message is a refusal", async () => {
    const { result, events } = await run([
      delta({ content: "Let me see. " }),
      delta({ refusal: "I can't help with that." }, "stop"),
    ]);
    expect(result.messages[0]).toMatchObject({ text: "Let me see. I can't help with that.", is_refusal: true });
    expect(events.filter((e) => e.type === "model_refusal")).toEqual([
      { type: "model_refusal", text: "I can't help with that." },
    ]);
    expect(events.map((e) => e.type)).toEqual(["text_delta", "text_delta", "model_refusal", "model_response_complete"]);
  });

  it("a refusal content part counts as a refusal", async () => {
    const { result } = await run([delta({ content: [{ type: "refusal", refusal: "No." }] }, "stop")]);
    expect(result.messages[0]).toMatchObject({ text: "No.", is_refusal: true });
  });

  it("a refusal that is not a string is a ProviderError naming the field", async () => {
    const error = await run([delta({ refusal: 42 }, "stop")]).catch((e: unknown) => e);
    expect(ProviderError.isInstance(error)).toBe(true);
    expect(String((error as Error).message)).toMatch(/chunk\.choices\[0\]\.delta\.refusal/);
  });
});

describe("usage", () => {
  it("top-level usage wins over x_groq.usage; x_groq alone is read", async () => {
    const both = await run([
      delta({ content: "a" }, "stop"),
      {
        choices: [],
        usage: { prompt_tokens: 5, completion_tokens: 6 },
        x_groq: { usage: { prompt_tokens: 1, completion_tokens: 1 } },
      },
    ]);
    expect([both.result.tokens_in, both.result.tokens_out]).toEqual([5, 6]);
    const groq = await run([
      { ...delta({ content: "a" }, "stop"), x_groq: { id: "req", usage: { prompt_tokens: 7, completion_tokens: 8 } } },
    ]);
    expect([groq.result.tokens_in, groq.result.tokens_out]).toEqual([7, 8]);
  });
});
