/**
 * What the adapter sends back on the next turn, asserted on the request body the replay received.
 * Each case replays recorded (or documented) responses in order; the second response only has to
 * be well formed, the assertions are about the second request.
 */
import { describe, expect, it } from "vitest";
import type { Message, PromptRequest } from "glove-core";
import { byteByByte, insideUtf8, whole, type Chunking } from "../support/index.js";
import { EXPECTED, RECORDED_REFUSAL, RECORDED_REFUSAL_WHOLE } from "./expectations.js";
import { fixture, isStreamed, replayAdapter, weatherTool } from "./harness.js";

const noop = async () => {};
const DOCUMENTED_REFUSAL = "I'm sorry, I cannot assist with that request.";
type Wire = Record<string, unknown>;

/** Runs turn one on `first`, answers its calls, and returns the second request's messages. */
async function secondRequest(
  first: string,
  second: string,
  chunking: Chunking,
  options = {},
): Promise<{ messages: Wire[]; turnOne: Message }> {
  const { adapter, script } = replayAdapter(
    [
      { fixture: fixture(first), chunking },
      { fixture: fixture(second), chunking },
    ],
    options,
  );
  const history: Message[] = [{ sender: "user", text: "Recorded question." }];
  const request: PromptRequest = { messages: history, tools: [weatherTool] };
  const one = await adapter.prompt(request, noop);
  const turnOne = one.messages[0]!;
  history.push(turnOne, {
    sender: "user",
    text: "",
    tool_results: (turnOne.tool_calls ?? []).map((c) => ({
      tool_name: c.tool_name,
      call_id: c.id,
      result: { status: "success" as const, data: "18C" },
    })),
  });
  await adapter.prompt(request, noop);
  return { messages: script.body(1)["messages"] as Wire[], turnOne };
}

describe("provider extras on tool calls go back verbatim", () => {
  for (const [first, second] of [
    ["gemini-parallel-signed", "gemini-answer"],
    ["gemini-parallel-signed-whole", "gemini-answer-whole"],
  ] as const) {
    for (const chunking of [whole, byteByByte, insideUtf8]) {
      it(`${first} (${chunking === whole ? "whole" : chunking === byteByByte ? "byte by byte" : "inside UTF-8"})`, async () => {
        const { messages, turnOne } = await secondRequest(first, second, chunking);
        const assistant = messages[1]!;
        expect(assistant["role"]).toBe("assistant");
        expect(assistant["tool_calls"]).toEqual([
          {
            extra_content: { google: { thought_signature: "EnEKbwERTTIP0Zk3tjLvi9mRksxP" } },
            id: turnOne.tool_calls![0]!.id,
            type: "function",
            function: { name: "get_current_temperature", arguments: '{"city":"Paris"}' },
          },
          // The unsigned call goes back without an invented extra_content.
          {
            id: turnOne.tool_calls![1]!.id,
            type: "function",
            function: { name: "get_current_temperature", arguments: '{"city":"London"}' },
          },
        ]);
        expect(messages.slice(2).map((m) => [m["role"], m["tool_call_id"]])).toEqual(
          turnOne.tool_calls!.map((c) => ["tool", c.id]),
        );
      });
    }
  }

  it("extras can never override the id, name or arguments the history holds", async () => {
    const { adapter, script } = replayAdapter([{ fixture: fixture("gemini-answer-whole") }]);
    // As JSON.parse makes it (from a store or the wire): `__proto__` is a plain own field here.
    const extras = JSON.parse(
      '{"id":"forged","function":{"name":"forged","strict":true},"__proto__":{"polluted":1}}',
    ) as Record<string, unknown>;
    const tricky: Message = {
      sender: "agent",
      text: "",
      tool_calls: [{ id: "call_real", tool_name: "weather", input_args: { city: "Oslo" }, provider_extras: extras }],
    };
    await adapter.prompt(
      {
        messages: [
          { sender: "user", text: "q" },
          tricky,
          {
            sender: "user",
            text: "",
            tool_results: [{ tool_name: "weather", call_id: "call_real", result: { status: "success", data: 1 } }],
          },
        ],
      },
      noop,
    );
    const sent = (script.body(0)["messages"] as Wire[])[1]!["tool_calls"] as Wire[];
    expect(sent[0]!["id"]).toBe("call_real");
    expect(sent[0]!["function"]).toEqual({ strict: true, name: "weather", arguments: '{"city":"Oslo"}' });
    expect(JSON.parse(script.requests[0]!.raw).messages[1].tool_calls[0].__proto__).toEqual({ polluted: 1 });
    expect(({} as Wire)["polluted"]).toBeUndefined();
  });
});

describe("reasoning sent back on tool-calling turns", () => {
  it("DeepSeek's recorded reasoning_content is echoed with the call it led to", async () => {
    const { messages } = await secondRequest("deepseek-tool-call", "openai-text", whole, { reasoning: true });
    expect(messages[1]).toMatchObject({
      role: "assistant",
      reasoning_content: "The user asks about",
      tool_calls: [
        {
          id: "call_00_IhCAliIHtM9gKpgfqbBV9873",
          function: { name: "weather", arguments: '{"location":"San Francisco"}' },
        },
      ],
    });
    // `index` is stream bookkeeping: never sent back as an extra.
    expect((messages[1]!["tool_calls"] as Wire[])[0]).not.toHaveProperty("index");
  });
});

describe("refusals", () => {
  for (const [name, refusal] of [
    ["openai-refusal", DOCUMENTED_REFUSAL],
    ["openai-refusal-whole", DOCUMENTED_REFUSAL],
    ["openai-recorded-refusal", RECORDED_REFUSAL],
    ["openai-recorded-refusal-whole", RECORDED_REFUSAL_WHOLE],
  ] as const) {
    it(`${name}: a refusal in the history goes back as ordinary assistant content`, async () => {
      const streamed = isStreamed(fixture(name));
      const { adapter, script } = replayAdapter([
        { fixture: fixture(name) },
        { fixture: fixture(streamed ? "openai-text" : "openai-json-schema-whole") },
      ]);
      const history: Message[] = [{ sender: "user", text: "Something the model refuses." }];
      const one = await adapter.prompt({ messages: history }, noop);
      expect(one.messages[0]).toMatchObject({ sender: "agent", is_refusal: true, text: refusal });
      history.push(one.messages[0]!, { sender: "user", text: "Then tell me about holidays." });
      await adapter.prompt({ messages: history }, noop);
      expect(script.body(1)["messages"]).toEqual([
        { role: "user", content: "Something the model refuses." },
        { role: "assistant", content: refusal },
        { role: "user", content: "Then tell me about holidays." },
      ]);
    });
  }
});

describe("parallel tool calls go back in order, each answered by its own tool message", () => {
  for (const name of ["openai-parallel-tools", "openai-parallel-tools-whole", "ollama-recorded-parallel-tools"]) {
    for (const chunking of [whole, byteByByte]) {
      it(`${name} (${chunking === whole ? "whole" : "byte by byte"})`, async () => {
        const second = isStreamed(fixture(name)) ? "openai-text" : "openai-json-schema-whole";
        const { messages, turnOne } = await secondRequest(name, second, chunking);
        const calls = EXPECTED[name]!.calls!;
        expect(turnOne.tool_calls?.map((c) => c.id)).toEqual(calls.map((c) => c.id));
        expect(messages[1]).toEqual({
          role: "assistant",
          content: null,
          tool_calls: calls.map((c) => ({
            id: c.id,
            type: "function",
            function: { name: c.name, arguments: JSON.stringify(c.input) },
          })),
        });
        expect(messages.slice(2)).toEqual(
          calls.map((c) => ({ role: "tool", tool_call_id: c.id, content: '{"status":"success","data":"18C"}' })),
        );
      });
    }
  }
});

describe("structured output (native JSON-schema mode)", () => {
  const output = {
    name: "calendar_event",
    description: "An extracted event.",
    schema: {
      type: "object",
      properties: { name: { type: "string" } },
      required: ["name"],
      additionalProperties: false,
    },
  };

  it("sends response_format json_schema with strict: true and reads the recorded JSON answer", async () => {
    const { adapter, script } = replayAdapter([{ fixture: fixture("openai-json-schema-whole") }]);
    expect(adapter.supportsStructuredOutput).toBe(true);
    const result = await adapter.prompt(
      { messages: [{ sender: "user", text: "Alice and Bob are going to a science fair on Friday." }], output },
      noop,
    );
    expect(script.body(0)["response_format"]).toEqual({
      type: "json_schema",
      json_schema: { name: "calendar_event", description: "An extracted event.", schema: output.schema, strict: true },
    });
    expect(JSON.parse(result.messages[0]!.text)).toEqual({
      name: "Science Fair",
      date: "Friday",
      participants: ["Alice", "Bob"],
    });
  });

  it("sends no response_format without an output request, or when native mode is off", async () => {
    const plain = replayAdapter([{ fixture: fixture("openai-json-schema-whole") }]);
    await plain.adapter.prompt({ messages: [{ sender: "user", text: "q" }] }, noop);
    expect(plain.script.body(0)).not.toHaveProperty("response_format");

    const off = replayAdapter([{ fixture: fixture("openai-json-schema-whole") }], { nativeStructuredOutput: false });
    expect(off.adapter.supportsStructuredOutput).toBe(false);
    await off.adapter.prompt({ messages: [{ sender: "user", text: "q" }], output }, noop);
    expect(off.script.body(0)).not.toHaveProperty("response_format");
  });
});
