import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { AbortError, type Message, type Tool } from "glove-core";
import { AnthropicAdapter, ProviderError, type AnthropicAdapterOptions } from "glove-core/models/anthropic";
import {
  dropAfter,
  frame,
  hang,
  json,
  named,
  recorder,
  sse,
  startFakeServer,
  type FakeServer,
  type Handler,
} from "./fake-server.js";

let server: FakeServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function adapterFor(handlers: Handler[], opts: Partial<AnthropicAdapterOptions> = {}) {
  server = await startFakeServer(...handlers);
  const adapter = new AnthropicAdapter({
    model: "claude-test",
    baseURL: server.url,
    apiKey: "ak-test",
    retryBaseDelayMs: 5,
    ...opts,
  });
  return { adapter, server };
}

/** Anthropic's event sequence for one message made of the given blocks. */
function anthropicStream(
  blocks: Array<{ text: string[] } | { tool: { id: string; name: string; json: string[] } } | { thinking: string[] }>,
  opts: { stop?: string | null; usage?: Record<string, number>; outTokens?: number } = {},
): unknown[] {
  const events: unknown[] = [
    named("message_start", {
      type: "message_start",
      message: {
        id: "msg_1",
        type: "message",
        role: "assistant",
        model: "claude-test",
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage: opts.usage ?? {
          input_tokens: 25,
          output_tokens: 1,
          cache_creation_input_tokens: 0,
          cache_read_input_tokens: 0,
        },
      },
    }),
    named("ping", { type: "ping" }),
  ];
  blocks.forEach((b, index) => {
    if ("text" in b) {
      events.push(
        named("content_block_start", { type: "content_block_start", index, content_block: { type: "text", text: "" } }),
      );
      for (const t of b.text)
        events.push(
          named("content_block_delta", { type: "content_block_delta", index, delta: { type: "text_delta", text: t } }),
        );
    } else if ("thinking" in b) {
      events.push(
        named("content_block_start", {
          type: "content_block_start",
          index,
          content_block: { type: "thinking", thinking: "" },
        }),
      );
      for (const t of b.thinking)
        events.push(
          named("content_block_delta", {
            type: "content_block_delta",
            index,
            delta: { type: "thinking_delta", thinking: t },
          }),
        );
      events.push(
        named("content_block_delta", {
          type: "content_block_delta",
          index,
          delta: { type: "signature_delta", signature: "sig" },
        }),
      );
    } else {
      events.push(
        named("content_block_start", {
          type: "content_block_start",
          index,
          content_block: { type: "tool_use", id: b.tool.id, name: b.tool.name, input: {} },
        }),
      );
      for (const j of b.tool.json)
        events.push(
          named("content_block_delta", {
            type: "content_block_delta",
            index,
            delta: { type: "input_json_delta", partial_json: j },
          }),
        );
    }
    events.push(named("content_block_stop", { type: "content_block_stop", index }));
  });
  events.push(
    named("message_delta", {
      type: "message_delta",
      delta: { stop_reason: opts.stop === undefined ? "end_turn" : opts.stop, stop_sequence: null },
      usage: { output_tokens: opts.outTokens ?? 15 },
    }),
    named("message_stop", { type: "message_stop" }),
  );
  return events;
}

const tool: Tool<unknown> = {
  name: "get_weather",
  description: "Weather for a city.",
  input_schema: z.object({ city: z.string() }) as z.ZodType<unknown>,
  run: async () => "x",
};

describe("AnthropicAdapter — streaming", () => {
  it("streams text, thinking and parallel tool uses; headers, system, tools and cache token counts", async () => {
    const { adapter, server } = await adapterFor([
      sse(
        anthropicStream(
          [
            { thinking: ["Need ", "weather."] },
            { text: ["Checking ", "both."] },
            { tool: { id: "toolu_1", name: "get_weather", json: ['{"ci', 'ty": "Oslo"}'] } },
            { tool: { id: "toolu_2", name: "get_weather", json: ['{"city": "Rome"}'] } },
          ],
          {
            stop: "tool_use",
            usage: {
              input_tokens: 10,
              output_tokens: 1,
              cache_creation_input_tokens: 100,
              cache_read_input_tokens: 1000,
            },
            outTokens: 40,
          },
        ),
      ),
    ]);
    const rec = recorder();
    const result = await adapter.prompt(
      { messages: [{ sender: "user", text: "Weather?" }], tools: [tool], systemPrompt: "Be brief." },
      rec.notify,
    );

    expect(rec.events.map((e) => e.type)).toEqual([
      "text_delta",
      "text_delta",
      "tool_use",
      "tool_use",
      "model_response_complete",
    ]);
    expect(rec.events[2]!.data).toEqual({ id: "toolu_1", name: "get_weather", input: { city: "Oslo" } });
    expect(rec.events[4]!.data).toEqual({
      text: "Checking both.",
      tool_calls: [
        { tool_name: "get_weather", input_args: { city: "Oslo" }, id: "toolu_1" },
        { tool_name: "get_weather", input_args: { city: "Rome" }, id: "toolu_2" },
      ],
      stop_reason: "tool_use",
      tokens_in: 1110,
      tokens_out: 40,
    });
    expect(result.messages[0]).toEqual({
      sender: "agent",
      text: "Checking both.",
      tool_calls: [
        { tool_name: "get_weather", input_args: { city: "Oslo" }, id: "toolu_1" },
        { tool_name: "get_weather", input_args: { city: "Rome" }, id: "toolu_2" },
      ],
      reasoning_content: "Need weather.",
      reasoning_blocks: [{ type: "thinking", text: "Need weather.", signature: "sig", provider: "anthropic" }],
      provider: "anthropic",
    });
    expect(result.tokens_in).toBe(1110);
    expect(adapter.lastUsage).toEqual({
      input_tokens: 10,
      output_tokens: 40,
      cache_creation_input_tokens: 100,
      cache_read_input_tokens: 1000,
    });

    const req = server.received[0]!;
    expect(req.path).toBe("/v1/messages");
    expect(req.headers["x-api-key"]).toBe("ak-test");
    expect(req.headers["anthropic-version"]).toBe("2023-06-01");
    expect(req.body).toMatchObject({ model: "claude-test", max_tokens: 8192, stream: true });
    expect(req.body.system).toEqual([{ type: "text", text: "Be brief.", cache_control: { type: "ephemeral" } }]);
    expect(req.body.messages).toEqual([{ role: "user", content: [{ type: "text", text: "Weather?" }] }]);
    expect(req.body.tools).toEqual([
      {
        name: "get_weather",
        description: "Weather for a city.",
        input_schema: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
      },
    ]);
  });

  it("text-only answer with end_turn", async () => {
    const { adapter } = await adapterFor([sse(anthropicStream([{ text: ["Hello", " there"] }]))]);
    const rec = recorder();
    const result = await adapter.prompt({ messages: [{ sender: "user", text: "hi" }] }, rec.notify);
    expect(rec.events).toEqual([
      { type: "text_delta", data: { text: "Hello" } },
      { type: "text_delta", data: { text: " there" } },
      {
        type: "model_response_complete",
        data: { text: "Hello there", tool_calls: undefined, stop_reason: "end_turn", tokens_in: 25, tokens_out: 15 },
      },
    ]);
    expect(result.messages).toEqual([{ sender: "agent", text: "Hello there", provider: "anthropic" }]);
  });

  it("a null stop_reason becomes undefined", async () => {
    const { adapter } = await adapterFor([sse(anthropicStream([{ text: ["a"] }], { stop: null }))]);
    const rec = recorder();
    await adapter.prompt({ messages: [{ sender: "user", text: "hi" }] }, rec.notify);
    expect(rec.events.at(-1)!.data).toHaveProperty("stop_reason", undefined);
  });

  it("an error event mid-stream is a ProviderError with the provider's type and message", async () => {
    const events = anthropicStream([{ text: ["a"] }]).slice(0, 3);
    events.push(named("error", { type: "error", error: { type: "overloaded_error", message: "Overloaded" } }));
    const { adapter } = await adapterFor([sse(events)]);
    await expect(
      adapter.prompt({ messages: [{ sender: "user", text: "hi" }] }, recorder().notify),
    ).rejects.toMatchObject({
      name: "ProviderError",
      provider: "anthropic",
      status: 529,
      retryable: true,
      providerMessage: "Overloaded",
      providerCode: "overloaded_error",
    });
  });

  it("a connection dropped mid-stream is a ProviderError", async () => {
    const events = anthropicStream([{ text: ["partial"] }])
      .slice(0, 4)
      .map(frame);
    const { adapter } = await adapterFor([dropAfter(events)]);
    const rec = recorder();
    const error = await adapter
      .prompt({ messages: [{ sender: "user", text: "hi" }] }, rec.notify)
      .catch((e: unknown) => e);
    expect(ProviderError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ status: 0, retryable: true });
    expect(rec.events).toEqual([{ type: "text_delta", data: { text: "partial" } }]);
  });

  it("a malformed stream event is a ProviderError", async () => {
    const { adapter } = await adapterFor([sse(["event: message_start\ndata: {oops\n\n"])]);
    await expect(
      adapter.prompt({ messages: [{ sender: "user", text: "hi" }] }, recorder().notify),
    ).rejects.toMatchObject({
      providerMessage: expect.stringContaining("malformed stream event"),
    });
  });
});

describe("AnthropicAdapter — request mapping", () => {
  it("maps tool use, tool results (is_error on error/aborted), images and documents; merges same-role turns keeping media", async () => {
    const { adapter, server } = await adapterFor([sse(anthropicStream([{ text: ["ok"] }]))]);
    const history: Message[] = [
      {
        sender: "user",
        text: "Look",
        content: [{ type: "image", source: { type: "base64", media_type: "image/png", data: "iVBOR" } }],
      },
      {
        sender: "user",
        text: "and read",
        content: [
          { type: "document", source: { type: "url", media_type: "application/pdf", url: "https://x/doc.pdf" } },
        ],
      },
      {
        sender: "agent",
        text: "Running tools",
        tool_calls: [
          { tool_name: "a", input_args: { x: 1 }, id: "toolu_a" },
          { tool_name: "b", input_args: "{broken", id: "toolu_b" },
          { tool_name: "c", input_args: {}, id: "toolu_c" },
        ],
      },
      {
        sender: "user",
        text: "",
        tool_results: [
          {
            tool_name: "a",
            call_id: "toolu_a",
            result: { status: "success", data: { ok: true }, renderData: { private: "secret@x" } },
          },
          {
            tool_name: "b",
            call_id: "toolu_b",
            result: { status: "error", data: null, message: "Invalid JSON arguments" },
          },
          { tool_name: "c", call_id: "toolu_c", result: { status: "aborted", data: null, message: "Aborted by user" } },
        ],
      },
      {
        sender: "user",
        text: "",
        content: [{ type: "document", source: { type: "base64", media_type: "application/pdf", data: "JVBER" } }],
      },
      { sender: "agent", text: "" },
    ];
    await adapter.prompt({ messages: history }, recorder().notify);
    const req = server.received[0]!;
    expect(req.body.system).toBeUndefined();
    expect(req.body.messages).toEqual([
      {
        role: "user",
        content: [
          { type: "text", text: "Look" },
          { type: "image", source: { type: "base64", media_type: "image/png", data: "iVBOR" } },
          { type: "text", text: "and read" },
          { type: "document", source: { type: "url", url: "https://x/doc.pdf" } },
        ],
      },
      {
        role: "assistant",
        content: [
          { type: "text", text: "Running tools" },
          { type: "tool_use", id: "toolu_a", name: "a", input: { x: 1 } },
          { type: "tool_use", id: "toolu_b", name: "b", input: { raw_arguments: "{broken" } },
          { type: "tool_use", id: "toolu_c", name: "c", input: {} },
        ],
      },
      {
        role: "user",
        content: [
          { type: "tool_result", tool_use_id: "toolu_a", content: '{"status":"success","data":{"ok":true}}' },
          {
            type: "tool_result",
            tool_use_id: "toolu_b",
            content: '{"status":"error","data":null,"message":"Invalid JSON arguments"}',
            is_error: true,
          },
          {
            type: "tool_result",
            tool_use_id: "toolu_c",
            content: '{"status":"aborted","data":null,"message":"Aborted by user"}',
            is_error: true,
          },
          { type: "document", source: { type: "base64", media_type: "application/pdf", data: "JVBER" } },
        ],
      },
    ]);
    expect(req.raw).not.toContain("secret@x");
  });

  it("a history opening with the model's turn gets a user turn first", async () => {
    const { adapter, server } = await adapterFor([sse(anthropicStream([{ text: ["ok"] }]))]);
    await adapter.prompt(
      {
        messages: [
          { sender: "agent", text: "Hello, how can I help?" },
          { sender: "user", text: "hi" },
        ],
      },
      recorder().notify,
    );
    expect(server.received[0]!.body.messages.map((m: { role: string }) => m.role)).toEqual([
      "user",
      "assistant",
      "user",
    ]);
  });

  it("prefers the request's system prompt; cacheSystemPrompt: false drops cache_control", async () => {
    const { adapter, server } = await adapterFor([sse(anthropicStream([{ text: ["ok"] }]))], {
      cacheSystemPrompt: false,
    });
    adapter.setSystemPrompt("setter");
    await adapter.prompt({ messages: [{ sender: "user", text: "a" }], systemPrompt: "request" }, recorder().notify);
    await adapter.prompt({ messages: [{ sender: "user", text: "a" }] }, recorder().notify);
    expect(server.received[0]!.body.system).toEqual([{ type: "text", text: "request" }]);
    expect(server.received[1]!.body.system).toEqual([{ type: "text", text: "setter" }]);
  });
});

describe("AnthropicAdapter — non-streaming", () => {
  it("one model_response with text, thinking, tool use, stop reason and cache-inclusive tokens", async () => {
    const { adapter, server } = await adapterFor(
      [
        json(200, {
          id: "msg_1",
          type: "message",
          role: "assistant",
          content: [
            { type: "thinking", thinking: "hmm", signature: "s" },
            { type: "text", text: "Let me look." },
            { type: "tool_use", id: "toolu_9", name: "get_weather", input: { city: "Lima" } },
          ],
          stop_reason: "tool_use",
          usage: { input_tokens: 5, output_tokens: 9, cache_read_input_tokens: 50, cache_creation_input_tokens: 0 },
        }),
      ],
      { stream: false },
    );
    const rec = recorder();
    const result = await adapter.prompt({ messages: [{ sender: "user", text: "q" }] }, rec.notify);
    expect(rec.events).toEqual([
      {
        type: "model_response",
        data: {
          text: "Let me look.",
          tool_calls: [{ tool_name: "get_weather", input_args: { city: "Lima" }, id: "toolu_9" }],
          stop_reason: "tool_use",
          tokens_in: 55,
          tokens_out: 9,
        },
      },
    ]);
    expect(result.messages[0]!.reasoning_content).toBe("hmm");
    expect(server.received[0]!.body.stream).toBeUndefined();
  });
});

describe("AnthropicAdapter — errors and abort", () => {
  const err = (type: string, message: string) => ({ type: "error", error: { type, message } });

  it("400 and 401 are not retried", async () => {
    const { adapter, server } = await adapterFor([
      json(400, err("invalid_request_error", "messages: roles must alternate")),
      json(401, err("authentication_error", "invalid x-api-key")),
    ]);
    await expect(
      adapter.prompt({ messages: [{ sender: "user", text: "a" }] }, recorder().notify),
    ).rejects.toMatchObject({
      status: 400,
      retryable: false,
      providerMessage: "messages: roles must alternate",
      providerCode: "invalid_request_error",
    });
    await expect(
      adapter.prompt({ messages: [{ sender: "user", text: "a" }] }, recorder().notify),
    ).rejects.toMatchObject({ status: 401, providerCode: "authentication_error" });
    expect(server.received).toHaveLength(2);
  });

  it("429 with retry-after is retried, then succeeds", async () => {
    const { adapter, server } = await adapterFor([
      json(429, err("rate_limit_error", "slow"), { "retry-after": "0.2" }),
      sse(anthropicStream([{ text: ["ok"] }])),
    ]);
    const started = performance.now();
    const result = await adapter.prompt({ messages: [{ sender: "user", text: "a" }] }, recorder().notify);
    expect(performance.now() - started).toBeGreaterThanOrEqual(180);
    expect(result.messages[0]!.text).toBe("ok");
    expect(server.received).toHaveLength(2);
  });

  it("500 and 529 are retried", async () => {
    const { adapter, server } = await adapterFor([
      json(500, err("api_error", "boom")),
      json(529, err("overloaded_error", "Overloaded")),
      sse(anthropicStream([{ text: ["ok"] }])),
    ]);
    const result = await adapter.prompt({ messages: [{ sender: "user", text: "a" }] }, recorder().notify);
    expect(result.messages[0]!.text).toBe("ok");
    expect(server.received).toHaveLength(3);
  });

  it("abort cancels the request at once with AbortError", async () => {
    const { adapter, server } = await adapterFor([hang]);
    const controller = new AbortController();
    const pending = adapter.prompt({ messages: [{ sender: "user", text: "a" }] }, recorder().notify, controller.signal);
    await new Promise((r) => setTimeout(r, 50));
    controller.abort();
    await expect(pending).rejects.toBeInstanceOf(AbortError);
    await new Promise((r) => setTimeout(r, 30));
    expect(server.clientAborts).toBe(1);
  });
});
