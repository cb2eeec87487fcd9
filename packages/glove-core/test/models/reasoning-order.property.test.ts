/**
 * Property: whatever reasoning blocks an answer carries (thinking with signatures, redacted data,
 * in any order, any text), streamed in any chunking, the next request sends back exactly those
 * blocks, in the same order, ahead of the text and tool calls — Anthropic SSE and Bedrock event
 * stream alike.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { Message } from "glove-core";
import { AnthropicAdapter } from "glove-core/models/anthropic";
import { BedrockAdapter } from "glove-core/models/bedrock";
import { encodeEventStreamMessage } from "../../src/models/shared/aws.js";
import { replayFetch, splitAt, type RecordedResponse } from "./recorded/support/index.js";

type Gen = { kind: "thinking"; text: string; signature: string } | { kind: "redacted"; data: string };

const base64ish = fc.stringMatching(/^[A-Za-z0-9+/]{4,40}={0,2}$/);
const block: fc.Arbitrary<Gen> = fc.oneof(
  fc.record({
    kind: fc.constant("thinking" as const),
    text: fc.string({ unit: "grapheme", maxLength: 30 }),
    signature: base64ish,
  }),
  fc.record({ kind: fc.constant("redacted" as const), data: base64ish }),
);
const answer = fc.record({
  blocks: fc.array(block, { minLength: 1, maxLength: 4 }),
  text: fc.string({ unit: "grapheme", minLength: 1, maxLength: 20 }),
  cuts: fc.array(fc.integer({ min: 1, max: 5000 }), { maxLength: 12 }),
});

const enc = (s: string) => new TextEncoder().encode(s);
const user: Message = { sender: "user", text: "go" };
const call = { id: "call_1", name: "t", input: { q: "é" } };
const toolResult: Message = {
  sender: "user",
  text: "",
  tool_results: [{ tool_name: "t", call_id: "call_1", result: { status: "success", data: 1 } }],
};

function anthropicBody(blocks: Gen[], text: string): Uint8Array {
  const ev = (type: string, data: object) => `event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`;
  let out = ev("message_start", { message: { usage: { input_tokens: 1, output_tokens: 1 } } });
  blocks.forEach((b, index) => {
    if (b.kind === "redacted")
      out += ev("content_block_start", { index, content_block: { type: "redacted_thinking", data: b.data } });
    else {
      out += ev("content_block_start", { index, content_block: { type: "thinking", thinking: "", signature: "" } });
      // Text and signature each split in two deltas.
      const t = [...b.text];
      out += ev("content_block_delta", { index, delta: { type: "thinking_delta", thinking: t.slice(0, 1).join("") } });
      out += ev("content_block_delta", { index, delta: { type: "thinking_delta", thinking: t.slice(1).join("") } });
      out += ev("content_block_delta", {
        index,
        delta: { type: "signature_delta", signature: b.signature.slice(0, 3) },
      });
      out += ev("content_block_delta", { index, delta: { type: "signature_delta", signature: b.signature.slice(3) } });
    }
    out += ev("content_block_stop", { index });
  });
  const n = blocks.length;
  out += ev("content_block_start", { index: n, content_block: { type: "text", text: "" } });
  out += ev("content_block_delta", { index: n, delta: { type: "text_delta", text } });
  out += ev("content_block_stop", { index: n });
  out += ev("content_block_start", {
    index: n + 1,
    content_block: { type: "tool_use", id: call.id, name: call.name, input: {} },
  });
  out += ev("content_block_delta", {
    index: n + 1,
    delta: { type: "input_json_delta", partial_json: JSON.stringify(call.input) },
  });
  out += ev("content_block_stop", { index: n + 1 });
  out += ev("message_delta", { delta: { stop_reason: "tool_use" }, usage: { output_tokens: 3 } });
  return enc(out + ev("message_stop", {}));
}

function bedrockBody(blocks: Gen[], text: string): Uint8Array {
  const frame = (type: string, payload: object) =>
    encodeEventStreamMessage(
      { ":event-type": type, ":content-type": "application/json", ":message-type": "event" },
      JSON.stringify(payload),
    );
  const frames = [frame("messageStart", { role: "assistant" })];
  blocks.forEach((b, i) => {
    if (b.kind === "redacted")
      frames.push(
        frame("contentBlockDelta", { contentBlockIndex: i, delta: { reasoningContent: { redactedContent: b.data } } }),
      );
    else {
      frames.push(frame("contentBlockDelta", { contentBlockIndex: i, delta: { reasoningContent: { text: b.text } } }));
      frames.push(
        frame("contentBlockDelta", { contentBlockIndex: i, delta: { reasoningContent: { signature: b.signature } } }),
      );
    }
    frames.push(frame("contentBlockStop", { contentBlockIndex: i }));
  });
  const n = blocks.length;
  frames.push(
    frame("contentBlockDelta", { contentBlockIndex: n, delta: { text } }),
    frame("contentBlockStop", { contentBlockIndex: n }),
  );
  frames.push(
    frame("contentBlockStart", {
      contentBlockIndex: n + 1,
      start: { toolUse: { toolUseId: call.id, name: call.name } },
    }),
  );
  frames.push(
    frame("contentBlockDelta", { contentBlockIndex: n + 1, delta: { toolUse: { input: JSON.stringify(call.input) } } }),
  );
  frames.push(
    frame("contentBlockStop", { contentBlockIndex: n + 1 }),
    frame("messageStop", { stopReason: "tool_use" }),
  );
  return new Uint8Array(Buffer.concat(frames));
}

const json = (body: unknown): RecordedResponse => ({
  status: 200,
  headers: { "content-type": "application/json" },
  body: enc(JSON.stringify(body)),
});

describe("reasoning blocks go back exactly as they came (property)", () => {
  it("Anthropic", async () => {
    await fc.assert(
      fc.asyncProperty(answer, async ({ blocks, text, cuts }) => {
        const stream: RecordedResponse = {
          status: 200,
          headers: { "content-type": "text/event-stream" },
          body: anthropicBody(blocks, text),
        };
        const { fetch, script } = replayFetch([
          { response: stream, chunking: (b) => splitAt(b, cuts) },
          { response: json({ content: [{ type: "text", text: "ok" }], usage: {} }) },
        ]);
        const options = {
          model: "m",
          fetch,
          thinking: { type: "enabled" as const, budget_tokens: 1024 },
          maxRetries: 0,
        };
        const reply = (await new AnthropicAdapter(options).prompt({ messages: [user] }, async () => {})).messages[0]!;
        await new AnthropicAdapter({ ...options, stream: false }).prompt(
          { messages: JSON.parse(JSON.stringify([user, reply, toolResult])) as Message[] },
          async () => {},
        );
        const sent = (script.body(1)["messages"] as Array<{ content: unknown[] }>)[1]!.content;
        expect(sent).toEqual([
          ...blocks.map((b) =>
            b.kind === "redacted"
              ? { type: "redacted_thinking", data: b.data }
              : { type: "thinking", thinking: b.text, signature: b.signature },
          ),
          { type: "text", text },
          { type: "tool_use", ...call },
        ]);
        expect(script.body(1)["thinking"]).toEqual({ type: "enabled", budget_tokens: 1024 });
      }),
      { numRuns: 40 },
    );
  });

  it("Bedrock", async () => {
    await fc.assert(
      fc.asyncProperty(answer, async ({ blocks, text, cuts }) => {
        const stream: RecordedResponse = {
          status: 200,
          headers: { "content-type": "application/vnd.amazon.eventstream" },
          body: bedrockBody(blocks, text),
        };
        const { fetch, script } = replayFetch([
          { response: stream, chunking: (b) => splitAt(b, cuts) },
          {
            response: json({
              output: { message: { role: "assistant", content: [{ text: "ok" }] } },
              stopReason: "end_turn",
            }),
          },
        ]);
        const credentials = { accessKeyId: "AKID", secretAccessKey: "secret" };
        const model = new BedrockAdapter({ model: "m", region: "us-east-1", credentials, fetch, maxRetries: 0 });
        const reply = (await model.prompt({ messages: [user] }, async () => {})).messages[0]!;
        const second = new BedrockAdapter({
          model: "m",
          region: "us-east-1",
          credentials,
          fetch,
          stream: false,
          maxRetries: 0,
        });
        await second.prompt(
          { messages: JSON.parse(JSON.stringify([user, reply, toolResult])) as Message[] },
          async () => {},
        );
        const sent = (script.body(1)["messages"] as Array<{ content: unknown[] }>)[1]!.content;
        expect(sent).toEqual([
          ...blocks.map((b) => ({
            reasoningContent:
              b.kind === "redacted"
                ? { redactedContent: b.data }
                : { reasoningText: { text: b.text, signature: b.signature } },
          })),
          { text },
          { toolUse: { toolUseId: call.id, name: call.name, input: call.input } },
        ]);
      }),
      { numRuns: 40 },
    );
  });
});
