/** BedrockAdapter: thinking settings on the wire, unsigned reasoning, reasoning blocks in a stream. */
import { afterEach, describe, expect, it } from "vitest";
import type { Message } from "glove-core";
import { BedrockAdapter, type BedrockAdapterOptions } from "glove-core/models/bedrock";
import { json, recorder, startFakeServer, type FakeServer } from "./fake-server.js";

let server: FakeServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const credentials = { accessKeyId: "AKIDEXAMPLE", secretAccessKey: "secret" };
const answer = (content: unknown[]) =>
  json(200, {
    output: { message: { role: "assistant", content } },
    stopReason: "end_turn",
    usage: { inputTokens: 1, outputTokens: 1 },
  });

async function adapterFor(content: unknown[], opts: Partial<BedrockAdapterOptions> = {}) {
  server = await startFakeServer(answer(content));
  return new BedrockAdapter({
    model: "m",
    region: "us-east-1",
    baseURL: server.url,
    credentials,
    stream: false,
    ...opts,
  });
}

const user: Message = { sender: "user", text: "hi" };

describe("BedrockAdapter thinking settings", () => {
  it("merges thinking and the interleaved beta into additionalModelRequestFields", async () => {
    const model = await adapterFor([{ text: "ok" }], {
      thinking: { type: "enabled", budget_tokens: 2048 },
      interleavedThinking: true,
      additionalModelRequestFields: { anthropic_beta: ["context-1m-2025-08-07"], top_k: 5 },
    });
    await model.prompt({ messages: [user] }, recorder().notify);
    expect(server!.received[0]!.body.additionalModelRequestFields).toEqual({
      anthropic_beta: ["context-1m-2025-08-07", "interleaved-thinking-2025-05-14"],
      top_k: 5,
      thinking: { type: "enabled", budget_tokens: 2048 },
    });
  });

  it("sends no additionalModelRequestFields without thinking; refuses a budget the API would refuse", async () => {
    const model = await adapterFor([{ text: "ok" }]);
    await model.prompt({ messages: [user] }, recorder().notify);
    expect(server!.received[0]!.body.additionalModelRequestFields).toBeUndefined();
    expect(
      () =>
        new BedrockAdapter({
          model: "m",
          credentials,
          maxTokens: 2000,
          thinking: { type: "enabled", budget_tokens: 2000 },
        }),
    ).toThrow(/raise maxTokens/);
  });
});

describe("BedrockAdapter reasoning without a signature", () => {
  it("keeps unsigned reasoning for display but never sends it back", async () => {
    const model = await adapterFor([
      { reasoningContent: { reasoningText: { text: "UNSIGNED-THOUGHT" } } },
      { text: "42" },
    ]);
    const reply = (await model.prompt({ messages: [user] }, recorder().notify)).messages[0]!;
    expect(reply.reasoning_blocks).toEqual([{ type: "thinking", text: "UNSIGNED-THOUGHT", provider: "bedrock" }]);
    expect(reply.reasoning_content).toBe("UNSIGNED-THOUGHT");
    server!.handlers.push(answer([{ text: "ok" }]));
    await model.prompt({ messages: [user, reply, { sender: "user", text: "more" }] }, recorder().notify);
    expect(server!.received[1]!.raw).not.toContain("UNSIGNED-THOUGHT");
    expect((server!.received[1]!.body.messages as Array<{ content: unknown[] }>)[1]!.content).toEqual([{ text: "42" }]);
  });
});

describe("BedrockAdapter thinking in a tool loop begun without it", () => {
  it("leaves thinking out of additionalModelRequestFields (keeping the other fields), and keeps it for a signed loop", async () => {
    const model = await adapterFor([{ text: "ok" }], {
      thinking: { type: "enabled", budget_tokens: 1024 },
      additionalModelRequestFields: { top_k: 5 },
    });
    server!.handlers.push(answer([{ text: "ok" }]));
    const call: Message = { sender: "agent", text: "", tool_calls: [{ tool_name: "t", input_args: {}, id: "a" }] };
    const result: Message = {
      sender: "user",
      text: "",
      tool_results: [{ tool_name: "t", call_id: "a", result: { status: "success", data: 1 } }],
    };
    await model.prompt({ messages: [user, call, result] }, recorder().notify);
    expect(server!.received[0]!.body.additionalModelRequestFields).toEqual({ top_k: 5 });
    const signed: Message = {
      ...call,
      reasoning_blocks: [{ type: "thinking", text: "x", signature: "S", provider: "bedrock" }],
    };
    await model.prompt({ messages: [user, signed, result] }, recorder().notify);
    expect(server!.received[1]!.body.additionalModelRequestFields).toEqual({
      top_k: 5,
      thinking: { type: "enabled", budget_tokens: 1024 },
    });
  });
});
