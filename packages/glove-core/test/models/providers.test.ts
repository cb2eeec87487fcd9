import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { ConfigurationError } from "glove-core";
import { PROVIDERS, createAdapter, getAvailableProviders, getProvider } from "glove-core/models/providers";
import { MiMoAdapter } from "glove-core/models/mimo";
import { hang, json, recorder, sse, startFakeServer, type FakeServer } from "./fake-server.js";

const KEYS = [
  "OPENAI_BASE_URL",
  "ANTHROPIC_BASE_URL",
  "OPENAI_API_KEY",
  "ANTHROPIC_API_KEY",
  "OPENROUTER_API_KEY",
  "GEMINI_API_KEY",
  "MINIMAX_API_KEY",
  "MOONSHOT_API_KEY",
  "ZHIPUAI_API_KEY",
  "MIMO_API_KEY",
  "AWS_ACCESS_KEY_ID",
  "AWS_SECRET_ACCESS_KEY",
  "AWS_SESSION_TOKEN",
  "AWS_BEARER_TOKEN_BEDROCK",
  "AWS_REGION",
  "AWS_DEFAULT_REGION",
];

let server: FakeServer | undefined;
beforeEach(() => {
  for (const k of KEYS) vi.stubEnv(k, "");
});
afterEach(async () => {
  vi.unstubAllEnvs();
  await server?.close();
  server = undefined;
});

const doneChunk = { choices: [{ index: 0, delta: { content: "ok" }, finish_reason: "stop" }] };

describe("provider table", () => {
  it("documents the eleven providers with the spec's env vars and default models", () => {
    const rows = Object.values(PROVIDERS).map((p) => [p.id, p.envVar, p.defaultModel]);
    expect(rows).toEqual([
      ["openai", "OPENAI_API_KEY", "gpt-4.1"],
      ["anthropic", "ANTHROPIC_API_KEY", "claude-sonnet-4-20250514"],
      ["openrouter", "OPENROUTER_API_KEY", "anthropic/claude-sonnet-4"],
      ["gemini", "GEMINI_API_KEY", "gemini-2.5-flash"],
      ["minimax", "MINIMAX_API_KEY", "MiniMax-M2.5"],
      ["kimi", "MOONSHOT_API_KEY", "kimi-k2.5"],
      ["glm", "ZHIPUAI_API_KEY", "glm-4-plus"],
      ["mimo", "MIMO_API_KEY", "mimo-v2.5"],
      ["ollama", null, null],
      ["lmstudio", null, null],
      ["bedrock", "AWS_ACCESS_KEY_ID", "anthropic.claude-3-5-sonnet-20241022-v2:0"],
    ]);
    for (const p of Object.values(PROVIDERS)) {
      expect(Object.keys(p).sort()).toEqual([
        "baseURL",
        "defaultMaxTokens",
        "defaultModel",
        "envVar",
        "format",
        "id",
        "models",
        "name",
        "requiresApiKey",
      ]);
      expect(["openai", "anthropic", "bedrock"]).toContain(p.format);
      expect(p.requiresApiKey).toBe(p.id !== "ollama" && p.id !== "lmstudio");
      if (p.defaultModel) expect(p.models).toContain(p.defaultModel);
    }
    expect(PROVIDERS.ollama.baseURL).toBe("http://localhost:11434/v1");
    expect(PROVIDERS.anthropic.format).toBe("anthropic");
    expect(PROVIDERS.bedrock.format).toBe("bedrock");
  });

  it("getAvailableProviders marks what the environment can use", () => {
    vi.stubEnv("ANTHROPIC_API_KEY", "sk-ant");
    vi.stubEnv("AWS_ACCESS_KEY_ID", "AKID");
    const available = Object.fromEntries(getAvailableProviders().map((p) => [p.id, p.available]));
    expect(available).toEqual({
      openai: false,
      anthropic: true,
      openrouter: false,
      gemini: false,
      minimax: false,
      kimi: false,
      glm: false,
      mimo: false,
      ollama: true,
      lmstudio: true,
      bedrock: false, // the secret key is missing
    });
    vi.stubEnv("AWS_SECRET_ACCESS_KEY", "secret");
    expect(getAvailableProviders().find((p) => p.id === "bedrock")!.available).toBe(true);
    const openai = getAvailableProviders()[0]!;
    expect(openai).toMatchObject({
      id: "openai",
      name: "OpenAI",
      defaultModel: "gpt-4.1",
      models: expect.arrayContaining(["gpt-4.1"]),
    });
  });

  it("unknown provider: ConfigurationError listing the known ids", () => {
    expect(() => getProvider("nope")).toThrow(/Unknown model provider "nope".*openai, anthropic/);
    expect(() => createAdapter({ provider: "nope" })).toThrow(ConfigurationError);
  });
});

describe("createAdapter", () => {
  it("reads <PROVIDER>_BASE_URL from the environment; an explicit baseURL wins", async () => {
    server = await startFakeServer(sse([doneChunk], { done: true }));
    vi.stubEnv("OPENAI_API_KEY", "sk-test");
    vi.stubEnv("OPENAI_BASE_URL", `${server.url}/proxy/v1`);
    const result = await createAdapter({ provider: "openai", model: "gpt-test" }).prompt(
      { messages: [{ sender: "user", text: "hi" }] },
      recorder().notify,
    );
    expect(result.messages[0]!.text).toBe("ok");
    expect(server.received[0]!.path).toBe("/proxy/v1/chat/completions");
    await createAdapter({ provider: "openai", model: "gpt-test", baseURL: `${server.url}/explicit/v1` }).prompt(
      { messages: [{ sender: "user", text: "hi" }] },
      recorder().notify,
    );
    expect(server.received[1]!.path).toBe("/explicit/v1/chat/completions");
  });

  it("a missing key names the env var", () => {
    expect(() => createAdapter({ provider: "openai" })).toThrow(/set OPENAI_API_KEY/);
    expect(() => createAdapter({ provider: "kimi" })).toThrow(/MOONSHOT_API_KEY/);
    expect(() => createAdapter({ provider: "anthropic" })).toThrow(ConfigurationError);
    expect(() => createAdapter({ provider: "bedrock" })).toThrow(/AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY/);
  });

  it("local providers need no key but a model", () => {
    expect(() => createAdapter({ provider: "ollama" })).toThrow(
      /no default model: pass createAdapter\(\{ provider: "ollama", model/,
    );
    expect(() => createAdapter({ provider: "lmstudio" })).toThrow(ConfigurationError);
    expect(createAdapter({ provider: "ollama", model: "llama3" }).name).toBe("ollama:llama3");
  });

  it("defaults: model from the table, key from the env, name provider:model", () => {
    vi.stubEnv("GEMINI_API_KEY", "g-key");
    expect(createAdapter({ provider: "gemini" }).name).toBe("gemini:gemini-2.5-flash");
    expect(createAdapter({ provider: "gemini", model: "gemini-2.5-pro" }).name).toBe("gemini:gemini-2.5-pro");
  });

  it("openai-format provider: lazy adapter posts to baseURL with the env key, maxTokens, reasoning, system prompt", async () => {
    server = await startFakeServer(sse([doneChunk], { done: true }));
    vi.stubEnv("ZHIPUAI_API_KEY", "zp-key");
    const model = createAdapter({
      provider: "glm",
      baseURL: `${server.url}/v4`,
      maxTokens: 100,
      reasoning: { effort: "high" },
    });
    model.setSystemPrompt("set before load");
    const result = await model.prompt({ messages: [{ sender: "user", text: "hi" }] }, recorder().notify);
    expect(result.messages[0]!.text).toBe("ok");
    const req = server.received[0]!;
    expect(req.path).toBe("/v4/chat/completions");
    expect(req.headers["authorization"]).toBe("Bearer zp-key");
    expect(req.body).toMatchObject({ model: "glm-4-plus", max_tokens: 100, reasoning_effort: "high", stream: true });
    expect(req.body.messages[0]).toEqual({ role: "system", content: "set before load" });
  });

  it("timeout reaches the adapter", async () => {
    server = await startFakeServer(hang);
    const model = createAdapter({ provider: "ollama", model: "slow", baseURL: `${server.url}/v1`, timeout: 100 });
    await expect(model.prompt({ messages: [{ sender: "user", text: "hi" }] }, recorder().notify)).rejects.toMatchObject(
      {
        name: "ProviderError",
        provider: "ollama",
        providerMessage: expect.stringContaining("timed out"),
      },
    );
  });

  it("stream: false and the default max tokens", async () => {
    server = await startFakeServer(json(200, { choices: [{ message: { content: "x" }, finish_reason: "stop" }] }));
    const model = createAdapter({ provider: "lmstudio", model: "qwen", baseURL: `${server.url}/v1`, stream: false });
    const rec = recorder();
    await model.prompt({ messages: [{ sender: "user", text: "hi" }] }, rec.notify);
    expect(rec.events.map((e) => e.type)).toEqual(["model_response"]);
    expect(server.received[0]!.body).toMatchObject({ model: "qwen", max_tokens: 4096 });
    expect(server.received[0]!.headers["authorization"]).toBeUndefined();
  });

  it("anthropic provider: explicit apiKey wins over env", async () => {
    vi.stubEnv("ANTHROPIC_API_KEY", "env-key");
    server = await startFakeServer(
      json(200, {
        content: [{ type: "text", text: "hey" }],
        stop_reason: "end_turn",
        usage: { input_tokens: 1, output_tokens: 1 },
      }),
    );
    const model = createAdapter({ provider: "anthropic", apiKey: "explicit", baseURL: server.url, stream: false });
    const result = await model.prompt(
      { messages: [{ sender: "user", text: "hi" }], systemPrompt: "sys" },
      recorder().notify,
    );
    expect(result.messages[0]!.text).toBe("hey");
    expect(server.received[0]!.headers["x-api-key"]).toBe("explicit");
    expect(server.received[0]!.body).toMatchObject({ model: "claude-sonnet-4-20250514", max_tokens: 8192 });
  });

  it("bedrock provider: signs with env credentials for the env region", async () => {
    vi.stubEnv("AWS_ACCESS_KEY_ID", "AKIDTEST");
    vi.stubEnv("AWS_SECRET_ACCESS_KEY", "secret");
    vi.stubEnv("AWS_REGION", "ap-south-1");
    server = await startFakeServer(
      json(200, {
        output: { message: { content: [{ text: "ok" }] } },
        stopReason: "end_turn",
        usage: { inputTokens: 1, outputTokens: 1 },
      }),
    );
    const model = createAdapter({ provider: "bedrock", baseURL: server.url, stream: false });
    await model.prompt({ messages: [{ sender: "user", text: "hi" }] }, recorder().notify);
    expect(server.received[0]!.headers["authorization"]).toMatch(
      /Credential=AKIDTEST\/\d{8}\/ap-south-1\/bedrock\/aws4_request/,
    );
  });

  it("mimo provider: reasoning captured and echoed; reasoningEffort maps onto thinking", async () => {
    vi.stubEnv("MIMO_API_KEY", "mimo-key");
    server = await startFakeServer(
      sse(
        [
          { choices: [{ index: 0, delta: { reasoning_content: "r1" } }] },
          {
            choices: [
              {
                index: 0,
                delta: { tool_calls: [{ index: 0, id: "c1", function: { name: "t", arguments: "{}" } }] },
                finish_reason: "tool_calls",
              },
            ],
          },
        ],
        { done: true },
      ),
      sse([doneChunk], { done: true }),
    );
    const model = createAdapter({ provider: "mimo", baseURL: `${server.url}/v1`, reasoningEffort: "high" });
    const first = await model.prompt({ messages: [{ sender: "user", text: "q" }] }, recorder().notify);
    expect(first.messages[0]!.reasoning_content).toBe("r1");
    await model.prompt(
      {
        messages: [
          { sender: "user", text: "q" },
          first.messages[0]!,
          {
            sender: "user",
            text: "",
            tool_results: [{ tool_name: "t", call_id: "c1", result: { status: "success", data: 1 } }],
          },
        ],
      },
      recorder().notify,
    );
    expect(server.received[0]!.body).toMatchObject({
      model: "mimo-v2.5",
      thinking: { type: "enabled" },
      reasoning_effort: "high",
      max_tokens: 8192,
    });
    expect(server.received[1]!.body.messages[1]).toMatchObject({ role: "assistant", reasoning_content: "r1" });
    const off = new MiMoAdapter({ model: "mimo-v2.5", baseURL: `${server.url}/v1`, reasoningEffort: "minimal" });
    await off.prompt({ messages: [{ sender: "user", text: "q" }] }, recorder().notify);
    expect(server.received[2]!.body.thinking).toEqual({ type: "disabled" });
    expect(server.received[2]!.body.reasoning_effort).toBeUndefined();
  });
});

describe("createAdapter: thinking and structured output options", () => {
  const anthropicAnswer = [
    { type: "message_start", message: { usage: { input_tokens: 1, output_tokens: 1 } } },
    { type: "message_delta", delta: { stop_reason: "end_turn" }, usage: { output_tokens: 1 } },
    { type: "message_stop" },
  ];

  it("anthropic: thinking true thinks with half of maxTokens; options pick a budget and interleaving", async () => {
    server = await startFakeServer(sse(anthropicAnswer), sse(anthropicAnswer));
    const plain = createAdapter({ provider: "anthropic", apiKey: "k", baseURL: server.url, thinking: true });
    expect(plain.supportsStructuredOutput).toBe(true);
    await plain.prompt({ messages: [{ sender: "user", text: "hi" }] }, recorder().notify);
    expect(server.received[0]!.body.thinking).toEqual({ type: "enabled", budget_tokens: 4096 });
    expect(server.received[0]!.headers["anthropic-beta"]).toBeUndefined();

    const chosen = createAdapter({
      provider: "anthropic",
      apiKey: "k",
      baseURL: server.url,
      maxTokens: 2048,
      thinking: { budgetTokens: 4096, interleaved: true },
    });
    await chosen.prompt({ messages: [{ sender: "user", text: "hi" }] }, recorder().notify);
    expect(server.received[1]!.body.thinking).toEqual({ type: "enabled", budget_tokens: 4096 });
    expect(server.received[1]!.headers["anthropic-beta"]).toBe("interleaved-thinking-2025-05-14");
  });

  it("bedrock: thinking goes to additionalModelRequestFields", async () => {
    vi.stubEnv("AWS_ACCESS_KEY_ID", "AKID");
    vi.stubEnv("AWS_SECRET_ACCESS_KEY", "secret");
    server = await startFakeServer(
      json(200, { output: { message: { role: "assistant", content: [{ text: "ok" }] } }, stopReason: "end_turn" }),
    );
    const adapter = createAdapter({
      provider: "bedrock",
      baseURL: server.url,
      stream: false,
      thinking: { budgetTokens: 1024 },
    });
    expect(adapter.supportsStructuredOutput).toBe(true);
    await adapter.prompt({ messages: [{ sender: "user", text: "hi" }] }, recorder().notify);
    expect(server.received[0]!.body.additionalModelRequestFields).toEqual({
      thinking: { type: "enabled", budget_tokens: 1024 },
    });
  });

  it("refuses, with advice, thinking where it does not apply and budgets the API would refuse", () => {
    expect(() => createAdapter({ provider: "openai", apiKey: "k", thinking: true })).toThrow(ConfigurationError);
    expect(() => createAdapter({ provider: "openai", apiKey: "k", thinking: true })).toThrow(/reasoningEffort/);
    expect(() =>
      createAdapter({ provider: "anthropic", apiKey: "k", maxTokens: 4096, thinking: { budgetTokens: 4096 } }),
    ).toThrow(/raise maxTokens/);
    expect(() => createAdapter({ provider: "anthropic", apiKey: "k", thinking: { budgetTokens: 100 } })).toThrow(
      /at least 1024/,
    );
  });

  it('anthropic: structuredOutput "tool" reaches the adapter', async () => {
    server = await startFakeServer(sse(anthropicAnswer));
    const adapter = createAdapter({
      provider: "anthropic",
      apiKey: "k",
      baseURL: server.url,
      structuredOutput: "tool",
    });
    await adapter.prompt(
      { messages: [{ sender: "user", text: "hi" }], output: { name: "answer", schema: { type: "object" } } },
      recorder().notify,
    );
    expect(server.received[0]!.body.tool_choice).toEqual({ type: "tool", name: "answer" });
  });
});

describe("createAdapter: supportsStructuredOutput is known before the first prompt", () => {
  it("the lazy adapter says what the adapter it loads says, for every provider", async () => {
    vi.stubEnv("AWS_ACCESS_KEY_ID", "AKID");
    vi.stubEnv("AWS_SECRET_ACCESS_KEY", "secret");
    for (const id of Object.keys(PROVIDERS)) {
      const lazy = createAdapter({ provider: id, apiKey: "k", model: "m" }) as ReturnType<typeof createAdapter> & {
        adapter(): Promise<{ supportsStructuredOutput?: boolean }>;
      };
      const before = lazy.supportsStructuredOutput;
      const inner = await lazy.adapter();
      expect(before, id).toBe(inner.supportsStructuredOutput);
      expect(before, id).toBe(true);
    }
  });
});
