import fc from "fast-check";
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { AbortError, type Message, type Tool } from "glove-core";
import { OpenAICompatAdapter, ProviderError, type OpenAICompatAdapterOptions } from "glove-core/models/openai-compat";
import { dropAfter, hang, json, recorder, sse, startFakeServer, type FakeServer, type Handler } from "./fake-server.js";

let server: FakeServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function adapterFor(handlers: Handler[], opts: Partial<OpenAICompatAdapterOptions> = {}) {
  server = await startFakeServer(...handlers);
  const adapter = new OpenAICompatAdapter({
    model: "test-model",
    baseURL: `${server.url}/v1`,
    apiKey: "sk-test",
    retryBaseDelayMs: 5,
    ...opts,
  });
  return { adapter, server };
}

const chunk = (delta: Record<string, unknown>, finish: string | null = null) => ({
  id: "chatcmpl-1",
  object: "chat.completion.chunk",
  created: 1,
  model: "test-model",
  choices: [{ index: 0, delta, finish_reason: finish }],
});
const usageChunk = (p: number, c: number) => ({
  id: "chatcmpl-1",
  object: "chat.completion.chunk",
  created: 1,
  model: "test-model",
  choices: [],
  usage: { prompt_tokens: p, completion_tokens: c, total_tokens: p + c },
});

const weatherTool: Tool<unknown> = {
  name: "get_weather",
  description: "Weather for a city.",
  input_schema: z.object({ city: z.string(), days: z.number().int().optional() }) as z.ZodType<unknown>,
  run: async () => "sunny",
};
const rawTool: Tool<unknown> = {
  name: "mcp_search",
  description: "Bridged from MCP.",
  jsonSchema: { type: "object", properties: { q: { type: "string" } }, required: ["q"], additionalProperties: false },
  run: async () => "ok",
};

describe("OpenAICompatAdapter — streaming", () => {
  it("streams text, assembles parallel tool-call fragments by index, reports usage", async () => {
    const { adapter, server } = await adapterFor([
      sse(
        [
          chunk({ role: "assistant", content: "" }),
          chunk({ content: "Let me " }),
          chunk({ content: "check." }),
          chunk({
            tool_calls: [
              { index: 0, id: "call_a", type: "function", function: { name: "get_weather", arguments: "" } },
            ],
          }),
          chunk({
            tool_calls: [
              { index: 1, id: "call_b", type: "function", function: { name: "mcp_search", arguments: '{"q"' } },
            ],
          }),
          chunk({ tool_calls: [{ index: 0, function: { arguments: '{"city":' } }] }),
          chunk({ tool_calls: [{ index: 0, function: { arguments: '"Tokyo"}' } }] }),
          chunk({ tool_calls: [{ index: 1, function: { arguments: ':"rain"}' } }] }),
          chunk({}, "tool_calls"),
          usageChunk(42, 17),
        ],
        { done: true },
      ),
    ]);
    const rec = recorder();
    const result = await adapter.prompt(
      {
        messages: [{ sender: "user", text: "Weather in Tokyo?" }],
        tools: [weatherTool, rawTool],
        systemPrompt: "Be brief.",
      },
      rec.notify,
    );

    expect(rec.events.map((e) => e.type)).toEqual([
      "text_delta",
      "text_delta",
      "tool_use",
      "tool_use",
      "model_response_complete",
    ]);
    expect(rec.events[2]!.data).toEqual({ id: "call_a", name: "get_weather", input: { city: "Tokyo" } });
    expect(rec.events[3]!.data).toEqual({ id: "call_b", name: "mcp_search", input: { q: "rain" } });
    expect(rec.events[4]!.data).toEqual({
      text: "Let me check.",
      tool_calls: [
        { tool_name: "get_weather", input_args: { city: "Tokyo" }, id: "call_a" },
        { tool_name: "mcp_search", input_args: { q: "rain" }, id: "call_b" },
      ],
      stop_reason: "tool_calls",
      tokens_in: 42,
      tokens_out: 17,
    });
    expect(result).toEqual({
      messages: [
        {
          sender: "agent",
          text: "Let me check.",
          provider: "openai",
          tool_calls: [
            { tool_name: "get_weather", input_args: { city: "Tokyo" }, id: "call_a" },
            { tool_name: "mcp_search", input_args: { q: "rain" }, id: "call_b" },
          ],
        },
      ],
      tokens_in: 42,
      tokens_out: 17,
    });

    const req = server.received[0]!;
    expect(req.method).toBe("POST");
    expect(req.path).toBe("/v1/chat/completions");
    expect(req.headers["authorization"]).toBe("Bearer sk-test");
    expect(req.headers["content-type"]).toBe("application/json");
    expect(req.body).toMatchObject({ model: "test-model", stream: true, stream_options: { include_usage: true } });
    expect(req.body.messages).toEqual([
      { role: "system", content: "Be brief." },
      { role: "user", content: "Weather in Tokyo?" },
    ]);
    expect(req.body.tools).toEqual([
      {
        type: "function",
        function: {
          name: "get_weather",
          description: "Weather for a city.",
          parameters: {
            type: "object",
            properties: {
              city: { type: "string" },
              days: { type: "integer", minimum: expect.any(Number), maximum: expect.any(Number) },
            },
            required: ["city"],
          },
        },
      },
      {
        type: "function",
        function: { name: "mcp_search", description: "Bridged from MCP.", parameters: rawTool.jsonSchema },
      },
    ]);
  });

  it("text-only answer: stop_reason from finish_reason, no tool_calls key", async () => {
    const { adapter } = await adapterFor([
      sse([chunk({ content: "Hi" }), chunk({}, "stop"), usageChunk(3, 1)], { done: true }),
    ]);
    const rec = recorder();
    const result = await adapter.prompt({ messages: [{ sender: "user", text: "hello" }] }, rec.notify);
    expect(rec.events).toEqual([
      { type: "text_delta", data: { text: "Hi" } },
      {
        type: "model_response_complete",
        data: { text: "Hi", tool_calls: undefined, stop_reason: "stop", tokens_in: 3, tokens_out: 1 },
      },
    ]);
    expect(result.messages).toEqual([{ sender: "agent", text: "Hi", provider: "openai" }]);
  });

  it("stop_reason is undefined (never null) when the provider sends none; tokens estimated without usage", async () => {
    const { adapter } = await adapterFor([sse([chunk({ content: "abcd" })], { done: true })]);
    const rec = recorder();
    const result = await adapter.prompt({ messages: [{ sender: "user", text: "x" }] }, rec.notify);
    const done = rec.events.at(-1)!;
    expect(done.type).toBe("model_response_complete");
    expect(done.data).toHaveProperty("stop_reason", undefined);
    expect(result.tokens_out).toBe(1);
    expect(result.tokens_in).toBeGreaterThan(0);
  });

  it("passes unparseable tool-call JSON through as the raw string", async () => {
    const { adapter } = await adapterFor([
      sse(
        [
          chunk({ tool_calls: [{ index: 0, id: "c1", function: { name: "get_weather", arguments: '{"city": Tok' } }] }),
          chunk({}, "tool_calls"),
        ],
        { done: true },
      ),
    ]);
    const rec = recorder();
    const result = await adapter.prompt({ messages: [{ sender: "user", text: "x" }] }, rec.notify);
    expect(result.messages[0]!.tool_calls).toEqual([
      { tool_name: "get_weather", input_args: '{"city": Tok', id: "c1" },
    ]);
    expect(rec.events[0]).toEqual({ type: "tool_use", data: { id: "c1", name: "get_weather", input: '{"city": Tok' } });
  });

  it("tool calls without an index (Gemini style) are told apart by id", async () => {
    const { adapter } = await adapterFor([
      sse(
        [
          chunk({
            tool_calls: [
              { id: "g1", type: "function", function: { name: "get_weather", arguments: '{"city":"Oslo"}' } },
            ],
          }),
          chunk({
            tool_calls: [
              { id: "g2", type: "function", function: { name: "get_weather", arguments: '{"city":"Rome"}' } },
            ],
          }),
          chunk({}, "tool_calls"),
        ],
        { done: true },
      ),
    ]);
    const result = await adapter.prompt({ messages: [{ sender: "user", text: "x" }] }, recorder().notify);
    expect(result.messages[0]!.tool_calls).toEqual([
      { tool_name: "get_weather", input_args: { city: "Oslo" }, id: "g1" },
      { tool_name: "get_weather", input_args: { city: "Rome" }, id: "g2" },
    ]);
  });

  it("handles CRLF line endings and events split across TCP writes", async () => {
    const body =
      [chunk({ content: "Hel" }), chunk({ content: "lo" }), chunk({}, "stop")]
        .map((c) => `data: ${JSON.stringify(c)}\r\n\r\n`)
        .join("") + "data: [DONE]\r\n\r\n";
    const { adapter } = await adapterFor([
      async (_req, res) => {
        res.writeHead(200, { "content-type": "text/event-stream" });
        for (let i = 0; i < body.length; i += 7) {
          res.write(body.slice(i, i + 7));
          await new Promise((r) => setImmediate(r));
        }
        res.end();
      },
    ]);
    const rec = recorder();
    const result = await adapter.prompt({ messages: [{ sender: "user", text: "x" }] }, rec.notify);
    expect(result.messages[0]!.text).toBe("Hello");
    expect(
      rec.events
        .filter((e) => e.type === "text_delta")
        .map((e) => (e.data as { text: string }).text)
        .join(""),
    ).toBe("Hello");
  });
});

describe("OpenAICompatAdapter — request mapping", () => {
  const history: Message[] = [
    {
      sender: "user",
      text: "What is in this picture?",
      content: [{ type: "image", source: { type: "base64", media_type: "image/png", data: "iVBORw0KGgo=" } }],
    },
    {
      sender: "agent",
      text: "",
      tool_calls: [{ tool_name: "get_weather", input_args: { city: "Paris" }, id: "call_1" }],
      reasoning_content: "need weather",
    },
    {
      sender: "user",
      text: "",
      tool_results: [
        {
          tool_name: "get_weather",
          call_id: "call_1",
          result: { status: "success", data: { temp: 21 }, renderData: { secret: "email@x" }, summary: "s" },
        },
      ],
    },
    { sender: "agent", text: "It is 21°C." },
    {
      sender: "user",
      text: "And this doc?",
      content: [{ type: "document", source: { type: "base64", media_type: "application/pdf", data: "JVBERi0=" } }],
    },
    {
      sender: "user",
      text: "Also this one",
      content: [{ type: "image", source: { type: "url", media_type: "image/jpeg", url: "https://example.com/a.jpg" } }],
    },
  ];

  it("maps multimodal user content, tool calls and tool results; merges consecutive user messages keeping media", async () => {
    const { adapter, server } = await adapterFor([sse([chunk({ content: "ok" }), chunk({}, "stop")], { done: true })]);
    await adapter.prompt({ messages: history, systemPrompt: "sys" }, recorder().notify);
    const messages = server.received[0]!.body.messages;
    expect(messages).toEqual([
      { role: "system", content: "sys" },
      {
        role: "user",
        content: [
          { type: "text", text: "What is in this picture?" },
          { type: "image_url", image_url: { url: "data:image/png;base64,iVBORw0KGgo=" } },
        ],
      },
      {
        role: "assistant",
        content: null,
        tool_calls: [
          { id: "call_1", type: "function", function: { name: "get_weather", arguments: '{"city":"Paris"}' } },
        ],
      },
      { role: "tool", tool_call_id: "call_1", content: '{"status":"success","data":{"temp":21}}' },
      { role: "assistant", content: "It is 21°C." },
      {
        role: "user",
        content: [
          { type: "text", text: "And this doc?" },
          { type: "file", file: { filename: "document.pdf", file_data: "data:application/pdf;base64,JVBERi0=" } },
          { type: "text", text: "Also this one" },
          { type: "image_url", image_url: { url: "https://example.com/a.jpg" } },
        ],
      },
    ]);
    expect(server.received[0]!.raw).not.toContain("email@x");
  });

  it("error results carry status and message only", async () => {
    const { adapter, server } = await adapterFor([sse([chunk({}, "stop")], { done: true })]);
    await adapter.prompt(
      {
        messages: [
          { sender: "agent", text: "", tool_calls: [{ tool_name: "t", input_args: "{bad", id: "c9" }] },
          {
            sender: "user",
            text: "",
            tool_results: [
              {
                tool_name: "t",
                call_id: "c9",
                result: { status: "error", data: null, message: "Invalid JSON", renderData: "x" },
              },
            ],
          },
        ],
      },
      recorder().notify,
    );
    const messages = server.received[0]!.body.messages;
    expect(messages[0].tool_calls[0].function.arguments).toBe("{bad");
    expect(messages[1]).toEqual({
      role: "tool",
      tool_call_id: "c9",
      content: '{"status":"error","data":null,"message":"Invalid JSON"}',
    });
  });

  it("uses the request's system prompt over setSystemPrompt, and setSystemPrompt when the request has none", async () => {
    const { adapter, server } = await adapterFor([sse([chunk({}, "stop")], { done: true })]);
    adapter.setSystemPrompt("from setter");
    await adapter.prompt(
      { messages: [{ sender: "user", text: "a" }], systemPrompt: "from request" },
      recorder().notify,
    );
    await adapter.prompt({ messages: [{ sender: "user", text: "a" }] }, recorder().notify);
    expect(server.received[0]!.body.messages[0]).toEqual({ role: "system", content: "from request" });
    expect(server.received[1]!.body.messages[0]).toEqual({ role: "system", content: "from setter" });
  });

  it("reasoning options: effort, reasoning object, thinking, extraBody; max_completion_tokens for openai", async () => {
    const { adapter, server } = await adapterFor([sse([chunk({}, "stop")], { done: true })], {
      maxTokens: 1000,
      reasoning: {
        effort: "high",
        reasoningObject: { effort: "high", max_tokens: 2000 },
        thinking: { type: "enabled", budget_tokens: 512 },
        extraBody: { enable_thinking: true, thinking_budget: 1024 },
      },
    });
    await adapter.prompt({ messages: [{ sender: "user", text: "a" }] }, recorder().notify);
    expect(server.received[0]!.body).toMatchObject({
      max_completion_tokens: 1000,
      reasoning_effort: "high",
      reasoning: { effort: "high", max_tokens: 2000 },
      thinking: { type: "enabled", budget_tokens: 512 },
      enable_thinking: true,
      thinking_budget: 1024,
    });
    const other = new OpenAICompatAdapter({
      provider: "glm",
      model: "m",
      baseURL: `${server.url}/v1`,
      maxTokens: 5,
      reasoningEffort: "low",
    });
    await other.prompt({ messages: [{ sender: "user", text: "a" }] }, recorder().notify);
    expect(server.received[1]!.body).toMatchObject({ max_tokens: 5, reasoning_effort: "low" });
    expect(server.received[1]!.headers["authorization"]).toBeUndefined();
  });

  it("captures reasoning_content / reasoning and echoes it on tool-calling turns only", async () => {
    const { adapter, server } = await adapterFor(
      [
        sse(
          [
            chunk({ reasoning_content: "think " }),
            chunk({ reasoning: "more" }),
            chunk({ tool_calls: [{ index: 0, id: "c1", function: { name: "t", arguments: "{}" } }] }),
            chunk({}, "tool_calls"),
          ],
          { done: true },
        ),
        sse([chunk({ content: "done" }), chunk({}, "stop")], { done: true }),
      ],
      { reasoning: true },
    );
    const first = await adapter.prompt({ messages: [{ sender: "user", text: "q" }] }, recorder().notify);
    expect(first.messages[0]!.reasoning_content).toBe("think more");
    const history: Message[] = [
      { sender: "user", text: "q" },
      first.messages[0]!,
      {
        sender: "user",
        text: "",
        tool_results: [{ tool_name: "t", call_id: "c1", result: { status: "success", data: 1 } }],
      },
      { sender: "agent", text: "plain", reasoning_content: "not echoed" },
      { sender: "user", text: "again" },
    ];
    await adapter.prompt({ messages: history }, recorder().notify);
    const sent = server.received[1]!.body.messages;
    expect(sent[1]).toMatchObject({ role: "assistant", reasoning_content: "think more" });
    expect(sent[3]).toEqual({ role: "assistant", content: "plain" });
  });

  it("echo: false drops reasoning from requests; without reasoning nothing is captured", async () => {
    const { adapter, server } = await adapterFor(
      [sse([chunk({ reasoning_content: "hmm" }), chunk({ content: "x" }), chunk({}, "stop")], { done: true })],
      {
        reasoning: { echo: false },
      },
    );
    const msg: Message = {
      sender: "agent",
      text: "",
      reasoning_content: "r",
      tool_calls: [{ tool_name: "t", input_args: {}, id: "c" }],
    };
    const result = await adapter.prompt({ messages: [msg] }, recorder().notify);
    expect(server.received[0]!.body.messages[0].reasoning_content).toBeUndefined();
    expect(result.messages[0]!.reasoning_content).toBe("hmm");

    const plain = new OpenAICompatAdapter({ model: "m", baseURL: `${server.url}/v1` });
    const r2 = await plain.prompt({ messages: [{ sender: "user", text: "a" }] }, recorder().notify);
    expect(r2.messages[0]!.reasoning_content).toBeUndefined();
  });

  it("includeInText wraps reasoning in <think> in the deltas and the message text", async () => {
    const { adapter } = await adapterFor(
      [sse([chunk({ reasoning_content: "plan" }), chunk({ content: "answer" }), chunk({}, "stop")], { done: true })],
      {
        reasoning: { includeInText: true },
      },
    );
    const rec = recorder();
    const result = await adapter.prompt({ messages: [{ sender: "user", text: "a" }] }, rec.notify);
    const deltas = rec.events.filter((e) => e.type === "text_delta").map((e) => (e.data as { text: string }).text);
    expect(deltas.join("")).toBe("<think>plan</think>\nanswer");
    expect(result.messages[0]!.text).toBe("<think>plan</think>\nanswer");
    expect(result.messages[0]!.reasoning_content).toBe("plan");
  });
});

describe("OpenAICompatAdapter — non-streaming", () => {
  it("emits exactly one model_response with tool calls, usage and stop reason", async () => {
    const { adapter, server } = await adapterFor(
      [
        json(200, {
          id: "x",
          object: "chat.completion",
          choices: [
            {
              index: 0,
              message: {
                role: "assistant",
                content: "Checking",
                reasoning_content: "r",
                tool_calls: [
                  { id: "c1", type: "function", function: { name: "get_weather", arguments: '{"city":"Oslo"}' } },
                  { id: "c2", type: "function", function: { name: "get_weather", arguments: '{"city":"Rome"}' } },
                ],
              },
              finish_reason: "tool_calls",
            },
          ],
          usage: { prompt_tokens: 11, completion_tokens: 7 },
        }),
      ],
      { stream: false, reasoning: true },
    );
    const rec = recorder();
    const result = await adapter.prompt({ messages: [{ sender: "user", text: "q" }] }, rec.notify);
    expect(rec.events).toEqual([
      {
        type: "model_response",
        data: {
          text: "Checking",
          tool_calls: [
            { tool_name: "get_weather", input_args: { city: "Oslo" }, id: "c1" },
            { tool_name: "get_weather", input_args: { city: "Rome" }, id: "c2" },
          ],
          stop_reason: "tool_calls",
          tokens_in: 11,
          tokens_out: 7,
        },
      },
    ]);
    expect(result.messages[0]!.reasoning_content).toBe("r");
    expect(server.received[0]!.body.stream).toBeUndefined();
    expect(server.received[0]!.body.stream_options).toBeUndefined();
  });

  it("null finish_reason becomes undefined", async () => {
    const { adapter } = await adapterFor(
      [json(200, { choices: [{ message: { content: "a" }, finish_reason: null }] })],
      { stream: false },
    );
    const rec = recorder();
    await adapter.prompt({ messages: [{ sender: "user", text: "q" }] }, rec.notify);
    expect(rec.events[0]!.data).toHaveProperty("stop_reason", undefined);
  });
});

describe("OpenAICompatAdapter — errors and abort", () => {
  const errorBody = (message: string, type: string) => ({ error: { message, type, code: null } });

  it("400 is not retried and carries provider, status and the provider's message", async () => {
    const { adapter, server } = await adapterFor([
      json(400, errorBody("Invalid 'messages[1].content'", "invalid_request_error")),
    ]);
    const error = await adapter
      .prompt({ messages: [{ sender: "user", text: "a" }] }, recorder().notify)
      .catch((e: unknown) => e);
    expect(ProviderError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({
      name: "ProviderError",
      provider: "openai",
      status: 400,
      retryable: false,
      providerMessage: "Invalid 'messages[1].content'",
      providerCode: "invalid_request_error",
    });
    expect(server.received).toHaveLength(1);
  });

  it("401 is not retried", async () => {
    const { adapter, server } = await adapterFor([
      json(401, errorBody("Incorrect API key provided", "invalid_api_key")),
    ]);
    await expect(
      adapter.prompt({ messages: [{ sender: "user", text: "a" }] }, recorder().notify),
    ).rejects.toMatchObject({ status: 401, retryable: false });
    expect(server.received).toHaveLength(1);
  });

  it("429 is retried after the retry-after the server asks for", async () => {
    const { adapter, server } = await adapterFor(
      [
        json(429, errorBody("Rate limit reached", "rate_limit_exceeded"), { "retry-after": "0.3" }),
        sse([chunk({ content: "ok" }), chunk({}, "stop")], { done: true }),
      ],
      { retryBaseDelayMs: 1 },
    );
    const started = performance.now();
    const result = await adapter.prompt({ messages: [{ sender: "user", text: "a" }] }, recorder().notify);
    expect(performance.now() - started).toBeGreaterThanOrEqual(280);
    expect(result.messages[0]!.text).toBe("ok");
    expect(server.received).toHaveLength(2);
    expect(server.received[1]!.raw).toBe(server.received[0]!.raw);
  });

  it("500 is retried with backoff, then surfaces as a retryable ProviderError", async () => {
    const { adapter, server } = await adapterFor([json(500, errorBody("The server had an error", "server_error"))], {
      maxRetries: 2,
    });
    await expect(
      adapter.prompt({ messages: [{ sender: "user", text: "a" }] }, recorder().notify),
    ).rejects.toMatchObject({
      status: 500,
      retryable: true,
      providerMessage: "The server had an error",
    });
    expect(server.received).toHaveLength(3);
  });

  it("a retry-after longer than the cap fails at once with retryAfterMs", async () => {
    const { adapter, server } = await adapterFor([
      json(429, errorBody("slow down", "rate_limit"), { "retry-after": "120" }),
    ]);
    await expect(
      adapter.prompt({ messages: [{ sender: "user", text: "a" }] }, recorder().notify),
    ).rejects.toMatchObject({ status: 429, retryAfterMs: 120_000 });
    expect(server.received).toHaveLength(1);
  });

  it("a malformed stream event is a ProviderError", async () => {
    const { adapter } = await adapterFor([sse([chunk({ content: "a" }), "data: {not json\n\n"], { done: true })]);
    await expect(
      adapter.prompt({ messages: [{ sender: "user", text: "a" }] }, recorder().notify),
    ).rejects.toMatchObject({
      name: "ProviderError",
      providerMessage: expect.stringContaining("malformed stream event"),
    });
  });

  it("an error object inside the stream is a ProviderError with the provider's message", async () => {
    const { adapter } = await adapterFor([sse([{ error: { message: "Upstream overloaded", code: 502 } }])]);
    await expect(
      adapter.prompt({ messages: [{ sender: "user", text: "a" }] }, recorder().notify),
    ).rejects.toMatchObject({
      providerMessage: "Upstream overloaded",
      providerCode: "502",
    });
  });

  it("a connection dropped mid-stream is a retryable ProviderError (status 0), after the deltas already sent", async () => {
    const { adapter } = await adapterFor([
      dropAfter([`data: ${JSON.stringify(chunk({ content: "partial" }))}\n\n`, 'data: {"choi']),
    ]);
    const rec = recorder();
    const error = await adapter
      .prompt({ messages: [{ sender: "user", text: "a" }] }, rec.notify)
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ name: "ProviderError", status: 0, retryable: true });
    expect(rec.events).toEqual([{ type: "text_delta", data: { text: "partial" } }]);
  });

  it("an error thrown by a subscriber while streaming surfaces as is, not as a provider error", async () => {
    const { adapter, server } = await adapterFor([
      sse([chunk({ content: "a" }), chunk({ content: "b" }), chunk({}, "stop")], { done: true }),
    ]);
    const boom = new RangeError("subscriber broke");
    const error = await adapter
      .prompt({ messages: [{ sender: "user", text: "a" }] }, async () => {
        throw boom;
      })
      .catch((e: unknown) => e);
    expect(error).toBe(boom);
    expect(server.received).toHaveLength(1);
  });

  it("a subscriber that throws synchronously, or rejects after settled promises shared by earlier events, surfaces as is", async () => {
    const answer = [chunk({ content: "a" }), chunk({ content: "b" }), chunk({ content: "c" }), chunk({}, "stop")];
    const { adapter, server } = await adapterFor([sse(answer, { done: true }), sse(answer, { done: true })]);
    const sync = new RangeError("thrown, not rejected");
    const notifySync = (() => {
      throw sync;
    }) as unknown as Parameters<typeof adapter.prompt>[1];
    expect(
      await adapter.prompt({ messages: [{ sender: "user", text: "a" }] }, notifySync).catch((e: unknown) => e),
    ).toBe(sync);
    // As the event bus answers: one settled promise for every event taken synchronously.
    const settled = Promise.resolve();
    const late = new RangeError("rejected on the third event");
    let seen = 0;
    const error = await adapter
      .prompt({ messages: [{ sender: "user", text: "a" }] }, () => (++seen === 3 ? Promise.reject(late) : settled))
      .catch((e: unknown) => e);
    expect(error).toBe(late);
    expect(seen).toBe(3);
    expect(server.received).toHaveLength(2);
  });

  it("waits for a subscriber's promise before reading the next event", async () => {
    const { adapter } = await adapterFor([
      sse([chunk({ content: "a" }), chunk({ content: "b" }), chunk({}, "stop")], { done: true }),
    ]);
    const log: string[] = [];
    let release: () => void = () => undefined;
    const first = new Promise<void>((resolve) => (release = resolve));
    const pending = adapter.prompt({ messages: [{ sender: "user", text: "a" }] }, async (type, data) => {
      log.push(type === "text_delta" ? `delta ${(data as { text: string }).text}` : type);
      if (log.length === 1) await first;
    });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(log).toEqual(["delta a"]);
    release();
    await pending;
    expect(log).toEqual(["delta a", "delta b", "model_response_complete"]);
  });

  it("adapters of different endpoints, called in turn, each reach their own (the transport keeps the last URL parsed)", async () => {
    const answer = (text: string) => sse([chunk({ content: text }), chunk({}, "stop")], { done: true });
    const other = await startFakeServer(answer("B1"), answer("B2"));
    try {
      const { adapter: a, server: first } = await adapterFor([answer("A1"), answer("A2")]);
      const b = new OpenAICompatAdapter({ model: "test-model", baseURL: `${other.url}/v2`, apiKey: "sk-test" });
      const texts: string[] = [];
      for (const adapter of [a, b, a, b]) {
        const rec = recorder();
        await adapter.prompt({ messages: [{ sender: "user", text: "x" }] }, rec.notify);
        texts.push(
          rec.events
            .filter((e) => e.type === "text_delta")
            .map((e) => (e.data as { text: string }).text)
            .join(""),
        );
      }
      expect(texts).toEqual(["A1", "B1", "A2", "B2"]);
      expect(first.received.map((r) => r.path)).toEqual(["/v1/chat/completions", "/v1/chat/completions"]);
      expect(other.received.map((r) => r.path)).toEqual(["/v2/chat/completions", "/v2/chat/completions"]);
    } finally {
      await other.close();
    }
  });

  it("parses an endpoint's URL once for its calls, not per call", async () => {
    const answer = () => sse([chunk({ content: "x" }), chunk({}, "stop")], { done: true });
    const { adapter, server } = await adapterFor([answer(), answer(), answer()]);
    const endpoint = `${server.url}/v1/chat/completions`;
    const Original = globalThis.URL;
    let parses = 0;
    globalThis.URL = class extends Original {
      constructor(url: string | URL, base?: string | URL) {
        super(url, base);
        if (url === endpoint) parses++;
      }
    };
    try {
      for (let i = 0; i < 3; i++)
        await adapter.prompt({ messages: [{ sender: "user", text: "x" }] }, recorder().notify);
    } finally {
      globalThis.URL = Original;
    }
    expect(server.received).toHaveLength(3);
    expect(parses).toBeLessThanOrEqual(1);
  });

  it("property: adapters of three endpoints called in any order each reach their own", async () => {
    const servers = await Promise.all([0, 1, 2].map(() => startFakeServer()));
    try {
      // The last handler answers every later request.
      for (const [i, s] of servers.entries())
        s.handlers.push(sse([chunk({ content: `S${i}` }), chunk({}, "stop")], { done: true }));
      const adapters = servers.map(
        (s, i) => new OpenAICompatAdapter({ model: "test-model", baseURL: `${s.url}/v${i}`, apiKey: "sk-test" }),
      );
      await fc.assert(
        fc.asyncProperty(fc.array(fc.integer({ min: 0, max: 2 }), { minLength: 1, maxLength: 6 }), async (order) => {
          for (const i of order) {
            const rec = recorder();
            await adapters[i]!.prompt({ messages: [{ sender: "user", text: "x" }] }, rec.notify);
            expect(rec.events.find((e) => e.type === "text_delta")?.data).toEqual({ text: `S${i}` });
            expect(servers[i]!.received.at(-1)?.path).toBe(`/v${i}/chat/completions`);
          }
        }),
        { numRuns: 15 },
      );
    } finally {
      await Promise.all(servers.map((s) => s.close()));
    }
  });

  it("a stream that ends cleanly without finish_reason or [DONE] is an error", async () => {
    const { adapter } = await adapterFor([sse([chunk({ content: "partial" })])]);
    await expect(
      adapter.prompt({ messages: [{ sender: "user", text: "a" }] }, recorder().notify),
    ).rejects.toMatchObject({
      providerMessage: expect.stringContaining("ended before"),
    });
  });

  it("abort cancels the HTTP request at once and throws AbortError", async () => {
    const { adapter, server } = await adapterFor([hang]);
    const controller = new AbortController();
    const pending = adapter.prompt({ messages: [{ sender: "user", text: "a" }] }, recorder().notify, controller.signal);
    await new Promise((r) => setTimeout(r, 50));
    const started = performance.now();
    controller.abort();
    const error = await pending.catch((e: unknown) => e);
    // "At once": not after the hang (which never ends); generous, as a loaded machine stalls the event loop.
    expect(performance.now() - started).toBeLessThan(10_000);
    expect(AbortError.isInstance(error)).toBe(true);
    expect(error).toBeInstanceOf(AbortError);
    await new Promise((r) => setTimeout(r, 30));
    expect(server.clientAborts).toBe(1);
  });

  it("abort before the response headers arrive throws AbortError at once", async () => {
    const { adapter, server } = await adapterFor([() => {}]);
    const controller = new AbortController();
    const pending = adapter.prompt({ messages: [{ sender: "user", text: "a" }] }, recorder().notify, controller.signal);
    await new Promise((r) => setTimeout(r, 50));
    expect(server.received).toHaveLength(1);
    const started = performance.now();
    controller.abort(new Error("user pressed Ctrl-C"));
    const error = await pending.catch((e: unknown) => e);
    expect(performance.now() - started).toBeLessThan(10_000);
    expect(error).toBeInstanceOf(AbortError);
    expect((error as Error).message).toBe("user pressed Ctrl-C");
  });

  it("abort during a retry-after wait throws AbortError without another request", async () => {
    const { adapter, server } = await adapterFor([json(429, errorBody("later", "rate_limit"), { "retry-after": "5" })]);
    const controller = new AbortController();
    const pending = adapter.prompt({ messages: [{ sender: "user", text: "a" }] }, recorder().notify, controller.signal);
    await new Promise((r) => setTimeout(r, 80));
    controller.abort();
    await expect(pending).rejects.toBeInstanceOf(AbortError);
    expect(server.received).toHaveLength(1);
  });

  it("an already-aborted signal sends nothing", async () => {
    const { adapter, server } = await adapterFor([hang]);
    await expect(
      adapter.prompt({ messages: [{ sender: "user", text: "a" }] }, recorder().notify, AbortSignal.abort()),
    ).rejects.toBeInstanceOf(AbortError);
    expect(server.received).toHaveLength(0);
  });

  it("times out per the timeout option with a ProviderError", async () => {
    const { adapter } = await adapterFor([hang], { timeout: 100 });
    await expect(
      adapter.prompt({ messages: [{ sender: "user", text: "a" }] }, recorder().notify),
    ).rejects.toMatchObject({
      name: "ProviderError",
      providerMessage: expect.stringContaining("timed out"),
    });
  });

  it("a connection reset before any response is retried", async () => {
    const { adapter, server } = await adapterFor([
      (_req, res) => void res.socket?.destroy(),
      sse([chunk({ content: "ok" }), chunk({}, "stop")], { done: true }),
    ]);
    const result = await adapter.prompt({ messages: [{ sender: "user", text: "a" }] }, recorder().notify);
    expect(result.messages[0]!.text).toBe("ok");
    expect(server.received).toHaveLength(2);
  });

  it("an unreachable server is a network ProviderError after retries", async () => {
    const adapter = new OpenAICompatAdapter({
      provider: "ollama",
      model: "m",
      baseURL: "http://127.0.0.1:9/v1",
      retryBaseDelayMs: 1,
      maxRetries: 1,
    });
    await expect(
      adapter.prompt({ messages: [{ sender: "user", text: "a" }] }, recorder().notify),
    ).rejects.toMatchObject({
      provider: "ollama",
      status: 0,
      retryable: true,
      providerMessage: expect.stringContaining("network error"),
    });
  });
});

describe("OpenAICompatAdapter — incremental request body", () => {
  const fresh = () => new OpenAICompatAdapter({ model: "m", baseURL: "http://127.0.0.1:9/v1" });

  it("appending to the same history array gives the body a fresh adapter builds", () => {
    const adapter = fresh();
    const history: Message[] = [{ sender: "user", text: "one" }];
    const request = { messages: history, systemPrompt: "sys" };
    expect(adapter.buildBody(request)).toBe(fresh().buildBody(request));
    history.push(
      { sender: "agent", text: "", tool_calls: [{ tool_name: "t", input_args: { a: 1 }, id: "c1" }] },
      {
        sender: "user",
        text: "",
        tool_results: [{ tool_name: "t", call_id: "c1", result: { status: "success", data: 2 } }],
      },
      { sender: "agent", text: "done" },
    );
    expect(adapter.buildBody(request)).toBe(fresh().buildBody(request));
    // Appended messages that must merge with the last one take the full path.
    history.push(
      { sender: "user", text: "two" },
      {
        sender: "user",
        text: "three",
        content: [{ type: "image", source: { type: "url", media_type: "image/png", url: "https://x/i.png" } }],
      },
    );
    const merged = adapter.buildBody(request);
    expect(merged).toBe(fresh().buildBody(request));
    expect(JSON.parse(merged).messages.at(-1).content).toEqual([
      { type: "text", text: "two" },
      { type: "text", text: "three" },
      { type: "image_url", image_url: { url: "https://x/i.png" } },
    ]);
    history.push({ sender: "agent", text: "ok" });
    expect(adapter.buildBody(request)).toBe(fresh().buildBody(request));
  });

  it("a different array, or a replaced message, is rebuilt", () => {
    const adapter = fresh();
    const a: Message[] = [
      { sender: "user", text: "a" },
      { sender: "agent", text: "b" },
    ];
    adapter.buildBody({ messages: a });
    const b: Message[] = [{ sender: "user", text: "x" }];
    expect(adapter.buildBody({ messages: b })).toBe(fresh().buildBody({ messages: b }));
    a[1] = { sender: "agent", text: "changed" };
    expect(adapter.buildBody({ messages: a })).toContain("changed");
    expect(adapter.buildBody({ messages: [] })).toBe(fresh().buildBody({ messages: [] }));
  });
});
