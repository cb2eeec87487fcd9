/** AnthropicAdapter: reasoning blocks at the edges (split signatures, unsigned or foreign blocks), refusals. */
import { afterEach, describe, expect, it } from "vitest";
import type { Message } from "glove-core";
import { AnthropicAdapter } from "glove-core/models/anthropic";
import { json, named, recorder, sse, startFakeServer, type FakeServer, type Handler } from "./fake-server.js";

let server: FakeServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function adapterFor(handlers: Handler[], opts: { provider?: string; stream?: boolean } = {}) {
  server = await startFakeServer(...handlers);
  return new AnthropicAdapter({ model: "claude-test", baseURL: server.url, apiKey: "k", retryBaseDelayMs: 5, ...opts });
}

const start = named("message_start", {
  type: "message_start",
  message: { usage: { input_tokens: 3, output_tokens: 1 } },
});
const stop = (reason: string) => [
  named("message_delta", { type: "message_delta", delta: { stop_reason: reason }, usage: { output_tokens: 2 } }),
  named("message_stop", { type: "message_stop" }),
];
const delta = (index: number, d: Record<string, unknown>) =>
  named("content_block_delta", { type: "content_block_delta", index, delta: d });
const user: Message = { sender: "user", text: "hi" };

describe("AnthropicAdapter reasoning blocks", () => {
  it("joins a signature sent in several deltas, and tags blocks with the adapter's provider id", async () => {
    const model = await adapterFor(
      [
        sse([
          start,
          named("content_block_start", {
            type: "content_block_start",
            index: 0,
            content_block: { type: "thinking", thinking: "", signature: "" },
          }),
          delta(0, { type: "thinking_delta", thinking: "a" }),
          delta(0, { type: "signature_delta", signature: "AAAA" }),
          delta(0, { type: "signature_delta", signature: "BBBB" }),
          named("content_block_stop", { type: "content_block_stop", index: 0 }),
          ...stop("end_turn"),
        ]),
      ],
      { provider: "proxy" },
    );
    const result = await model.prompt({ messages: [user] }, recorder().notify);
    expect(result.messages[0]!.reasoning_blocks).toEqual([
      { type: "thinking", text: "a", signature: "AAAABBBB", provider: "proxy" },
    ]);
  });

  it("sends back only signed blocks of its own provider id, reasoning first even with no text", async () => {
    const model = await adapterFor([json(200, { content: [{ type: "text", text: "ok" }], usage: {} })], {
      provider: "proxy",
      stream: false,
    });
    const agent: Message = {
      sender: "agent",
      text: "",
      tool_calls: [{ tool_name: "t", input_args: {}, id: "toolu_1" }],
      reasoning_blocks: [
        { type: "thinking", text: "unsigned", provider: "proxy" },
        { type: "redacted_thinking", data: "R1", provider: "proxy" },
        { type: "thinking", text: "signed", signature: "S1", provider: "proxy" },
        { type: "thinking", text: "elsewhere", signature: "S2", provider: "anthropic" },
        { type: "thinking", text: "untagged", signature: "S3" },
      ],
    };
    const result: Message = {
      sender: "user",
      text: "",
      tool_results: [{ tool_name: "t", call_id: "toolu_1", result: { status: "success", data: 1 } }],
    };
    await model.prompt({ messages: [user, agent, result] }, recorder().notify);
    const sent = server!.received[0]!.body.messages as Array<{ content: unknown[] }>;
    expect(sent[1]!.content).toEqual([
      { type: "redacted_thinking", data: "R1" },
      { type: "thinking", thinking: "signed", signature: "S1" },
      { type: "tool_use", id: "toolu_1", name: "t", input: {} },
    ]);
    for (const hidden of ["unsigned", "elsewhere", "untagged", "S2", "S3"])
      expect(server!.received[0]!.raw).not.toContain(hidden);
  });
});

describe("AnthropicAdapter refusals", () => {
  it("stop_reason refusal (streamed) marks the message and emits model_refusal before the response event", async () => {
    const model = await adapterFor([
      sse([
        start,
        named("content_block_start", {
          type: "content_block_start",
          index: 0,
          content_block: { type: "text", text: "" },
        }),
        delta(0, { type: "text_delta", text: "I can't help with that." }),
        named("content_block_stop", { type: "content_block_stop", index: 0 }),
        ...stop("refusal"),
      ]),
    ]);
    const rec = recorder();
    const result = await model.prompt({ messages: [user] }, rec.notify);
    expect(result.messages[0]).toMatchObject({ text: "I can't help with that.", is_refusal: true });
    expect(rec.events.map((e) => e.type)).toEqual(["text_delta", "model_refusal", "model_response_complete"]);
    expect(rec.events[1]!.data).toEqual({ text: "I can't help with that." });
  });

  it("stop_reason refusal (whole answer) does the same; other stop reasons do not", async () => {
    const noStream = await adapterFor(
      [
        json(200, { content: [], stop_reason: "refusal", usage: {} }),
        json(200, { content: [{ type: "text", text: "fine" }], stop_reason: "end_turn", usage: {} }),
      ],
      { stream: false },
    );
    const rec = recorder();
    const refused = await noStream.prompt({ messages: [user] }, rec.notify);
    expect(refused.messages[0]).toMatchObject({ text: "", is_refusal: true });
    expect(rec.events.map((e) => e.type)).toEqual(["model_refusal", "model_response"]);
    const fine = await noStream.prompt({ messages: [user] }, recorder().notify);
    expect(fine.messages[0]!.is_refusal).toBeUndefined();
  });
});

describe("AnthropicAdapter thinking in a tool loop begun without it", () => {
  const call = (id: string): Message => ({
    sender: "agent",
    text: "",
    tool_calls: [{ tool_name: "t", input_args: {}, id }],
  });
  const result = (id: string): Message => ({
    sender: "user",
    text: "",
    tool_results: [{ tool_name: "t", call_id: id, result: { status: "success", data: 1 } }],
  });
  const signed = (message: Message, provider = "anthropic"): Message => ({
    ...message,
    reasoning_blocks: [{ type: "thinking", text: "x", signature: "S", provider }],
  });
  const ok = json(200, { content: [{ type: "text", text: "ok" }], usage: {} });

  async function thinkingSent(messages: Message[]): Promise<unknown> {
    server = await startFakeServer(ok);
    const model = new AnthropicAdapter({
      model: "claude-test",
      baseURL: server.url,
      apiKey: "k",
      stream: false,
      thinking: { type: "enabled", budget_tokens: 1024 },
    });
    await model.prompt({ messages }, recorder().notify);
    const body = server.received[0]!.body as { thinking?: unknown };
    await server.close();
    server = undefined;
    return body.thinking;
  }

  it("keeps thinking on for a loop that opened with this provider's thinking, however many calls followed", async () => {
    expect(await thinkingSent([user, signed(call("a")), result("a")])).toEqual({
      type: "enabled",
      budget_tokens: 1024,
    });
    expect(await thinkingSent([user, signed(call("a")), result("a"), call("b"), result("b")])).toEqual({
      type: "enabled",
      budget_tokens: 1024,
    });
    expect(
      await thinkingSent([
        user,
        call("a"),
        result("a"),
        { sender: "agent", text: "done" },
        { sender: "user", text: "next" },
      ]),
    ).toBeDefined();
  });

  it("turns thinking off for a loop that opened without it (or with another provider's, left out)", async () => {
    expect(await thinkingSent([user, call("a"), result("a")])).toBeUndefined();
    expect(
      await thinkingSent([user, signed(call("a"), "bedrock"), result("a"), call("b"), result("b")]),
    ).toBeUndefined();
  });
});
