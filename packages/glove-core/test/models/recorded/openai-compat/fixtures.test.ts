import { describe, expect, it } from "vitest";
import type { SubscriberEvent } from "glove-core";
import { OpenAICompatAdapter } from "glove-core/models/openai-compat";
import { RecordingSubscriber } from "glove-core/testing";
import { listFixtures, randomSplits, replayServers, standardChunkings } from "../support/index.js";
import { EXPECTED, type Expected } from "./expectations.js";
import { FIXTURES, fixture, isStreamed, runFixture, weatherTool, type Run } from "./harness.js";

function check(run: Run, expected: Expected, streamed: boolean): void {
  const { message, result, events } = run;
  expect(message.text).toBe(expected.text);
  expect(message.reasoning_content).toBe(expected.reasoning);
  expect(message.is_refusal).toBe(expected.refusal);
  expect(message.provider_extras).toEqual(expected.messageExtras);
  expect(message.provider).toBe(expected.options?.provider ?? "openai");
  const calls = (message.tool_calls ?? []).map((c) => ({
    id: c.id,
    name: c.tool_name,
    input: c.input_args,
    ...(c.provider_extras ? { extras: c.provider_extras } : {}),
  }));
  expect(calls).toEqual(expected.calls ?? []);
  expect([result.tokens_in, result.tokens_out]).toEqual([expected.tokens_in, expected.tokens_out]);

  const of = <T extends SubscriberEvent["type"]>(t: T) =>
    events.filter((e): e is Extract<SubscriberEvent, { type: T }> => e.type === t);
  // A stream announces each call as it completes; a whole answer carries them on its response event.
  const announced = streamed ? of("tool_use").map((e) => [e.id, e.name, e.input]) : [];
  expect(announced).toEqual(streamed ? calls.map((c) => [c.id, c.name, c.input]) : []);
  expect(of("model_refusal")).toEqual(expected.refusal ? [{ type: "model_refusal", text: expected.text }] : []);
  const last = events[events.length - 1]!;
  expect(last.type).toBe(streamed ? "model_response_complete" : "model_response");
  if (last.type === "model_response" || last.type === "model_response_complete") {
    expect(last.stop_reason).toBe(expected.stop_reason);
    expect(last.text).toBe(expected.text);
    expect([last.tokens_in, last.tokens_out]).toEqual([expected.tokens_in, expected.tokens_out]);
    expect(last.tool_calls?.map((c) => [c.id, c.tool_name, c.input_args, c.provider_extras])).toEqual(
      calls.length ? calls.map((c) => [c.id, c.name, c.input, c.extras]) : undefined,
    );
  }
  if (streamed)
    expect(
      of("text_delta")
        .map((e) => e.text)
        .join(""),
    ).toBe(expected.text);
}

describe("recorded OpenAI-compatible responses", () => {
  it("every fixture has provenance and a stated expectation", () => {
    const names = listFixtures(FIXTURES);
    expect(names.sort()).toEqual(Object.keys(EXPECTED).sort());
    for (const name of names) expect(fixture(name).provenance.notes.length).toBeGreaterThan(10);
  });

  for (const [name, expected] of Object.entries(EXPECTED)) {
    describe(name, () => {
      for (const chunking of standardChunkings) {
        it(`parses the same under chunking: ${chunking.name}`, async () => {
          const run = await runFixture(name, chunking.cut, expected.options);
          check(run, expected, isStreamed(fixture(name)));
        });
      }
    });
  }
});

describe("recorded responses over a real socket", () => {
  const startServer = replayServers();

  for (const [name, expected] of Object.entries(EXPECTED)) {
    it(`${name} through the HTTP replay server`, async () => {
      const f = fixture(name);
      const server = await startServer([{ response: f.response, chunking: randomSplits(7, 32) }]);
      const adapter = new OpenAICompatAdapter({
        model: "recorded-model",
        baseURL: `${server.url}/v1`,
        apiKey: "sk-replay",
        stream: isStreamed(f),
        maxRetries: 0,
        ...expected.options,
      });
      const rec = new RecordingSubscriber();
      const result = await adapter.prompt(
        { messages: [{ sender: "user", text: "Recorded question." }], tools: [weatherTool] },
        (t, d) => rec.record(t, d),
      );
      check(
        { result, message: result.messages[0]!, events: rec.events, script: server.script },
        expected,
        isStreamed(f),
      );
      expect(server.script.requests[0]!.path).toBe("/v1/chat/completions");
    });
  }
});
