import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { AbortError, type Message, type Tool } from "glove-core";
import { BedrockAdapter, ProviderError, type BedrockAdapterOptions } from "glove-core/models/bedrock";
import { EventStreamDecoder, encodeEventStreamMessage, signV4 } from "../../src/models/shared/aws.js";
import { json, recorder, startFakeServer, type FakeServer, type Handler } from "./fake-server.js";

let server: FakeServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const credentials = {
  accessKeyId: "AKIDEXAMPLE",
  secretAccessKey: "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY",
  sessionToken: "tok",
};

async function adapterFor(handlers: Handler[], opts: Partial<BedrockAdapterOptions> = {}) {
  server = await startFakeServer(...handlers);
  const adapter = new BedrockAdapter({
    model: "anthropic.claude-3-5-sonnet-20241022-v2:0",
    region: "eu-west-1",
    baseURL: server.url,
    credentials,
    retryBaseDelayMs: 5,
    ...opts,
  });
  return { adapter, server };
}

const ev = (type: string, payload: unknown) =>
  encodeEventStreamMessage(
    { ":event-type": type, ":content-type": "application/json", ":message-type": "event" },
    JSON.stringify(payload),
  );
const exception = (type: string, message: string) =>
  encodeEventStreamMessage(
    { ":exception-type": type, ":content-type": "application/json", ":message-type": "exception" },
    JSON.stringify({ message }),
  );

function eventStream(frames: Uint8Array[], opts: { cutLast?: number; splitEvery?: number } = {}): Handler {
  return async (_req, res) => {
    res.writeHead(200, { "content-type": "application/vnd.amazon.eventstream" });
    const all = Buffer.concat(frames);
    const bytes = opts.cutLast ? all.subarray(0, all.length - opts.cutLast) : all;
    const step = opts.splitEvery ?? bytes.length;
    for (let i = 0; i < bytes.length; i += step) {
      res.write(bytes.subarray(i, i + step));
      await new Promise((r) => setImmediate(r));
    }
    if (opts.cutLast) setTimeout(() => res.socket?.destroy(), 10);
    else res.end();
  };
}

const toolStream = [
  ev("messageStart", { role: "assistant" }),
  ev("contentBlockDelta", { contentBlockIndex: 0, delta: { reasoningContent: { text: "thinking" } } }),
  ev("contentBlockDelta", { contentBlockIndex: 1, delta: { text: "Let me " } }),
  ev("contentBlockDelta", { contentBlockIndex: 1, delta: { text: "check." } }),
  ev("contentBlockStop", { contentBlockIndex: 1 }),
  ev("contentBlockStart", { contentBlockIndex: 2, start: { toolUse: { toolUseId: "tu_1", name: "get_weather" } } }),
  ev("contentBlockDelta", { contentBlockIndex: 2, delta: { toolUse: { input: '{"city":' } } }),
  ev("contentBlockDelta", { contentBlockIndex: 2, delta: { toolUse: { input: '"Oslo"}' } } }),
  ev("contentBlockStop", { contentBlockIndex: 2 }),
  ev("contentBlockStart", { contentBlockIndex: 3, start: { toolUse: { toolUseId: "tu_2", name: "get_weather" } } }),
  ev("contentBlockDelta", { contentBlockIndex: 3, delta: { toolUse: { input: '{"city":"Rome"}' } } }),
  ev("contentBlockStop", { contentBlockIndex: 3 }),
  ev("messageStop", { stopReason: "tool_use" }),
  ev("metadata", { usage: { inputTokens: 30, outputTokens: 12, totalTokens: 42 }, metrics: { latencyMs: 100 } }),
];

const tool: Tool<unknown> = {
  name: "get_weather",
  description: "Weather.",
  input_schema: z.object({ city: z.string() }) as z.ZodType<unknown>,
  run: async () => "x",
};

describe("SigV4 and the event stream codec", () => {
  it("signs the AWS documentation example (IAM ListUsers) to its published signature", async () => {
    const headers = await signV4({
      method: "GET",
      url: "https://iam.amazonaws.com/?Action=ListUsers&Version=2010-05-08",
      headers: { "content-type": "application/x-www-form-urlencoded; charset=utf-8" },
      body: "",
      region: "us-east-1",
      service: "iam",
      credentials: { accessKeyId: "AKIDEXAMPLE", secretAccessKey: "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY" },
      date: new Date("2015-08-30T12:36:00Z"),
    });
    expect(headers["authorization"]).toBe(
      "AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20150830/us-east-1/iam/aws4_request, SignedHeaders=content-type;host;x-amz-date, Signature=5d672d79c15b13162d9279b0855cfba6789a8edb4c82c400e06b5924a6f2b5d7",
    );
  });

  it("decodes frames split at any byte and rejects a corrupted CRC", () => {
    const bytes = Buffer.concat(toolStream.slice(0, 3));
    const decoder = new EventStreamDecoder();
    const out = [];
    for (const b of bytes) out.push(...decoder.push(Uint8Array.of(b)));
    expect(out.map((m) => m.headers[":event-type"])).toEqual([
      "messageStart",
      "contentBlockDelta",
      "contentBlockDelta",
    ]);
    expect(JSON.parse(new TextDecoder().decode(out[2]!.payload))).toEqual({
      contentBlockIndex: 1,
      delta: { text: "Let me " },
    });
    const bad = Uint8Array.from(toolStream[0]!);
    bad[bad.length - 6] = bad[bad.length - 6]! ^ 0xff;
    expect(() => new EventStreamDecoder().push(bad)).toThrow(/CRC/);
  });
});

describe("BedrockAdapter — ConverseStream", () => {
  it("streams text, reasoning and tool uses; request is signed and shaped for Converse", async () => {
    const { adapter, server } = await adapterFor([eventStream(toolStream, { splitEvery: 13 })]);
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
    expect(rec.events.at(-1)!.data).toEqual({
      text: "Let me check.",
      tool_calls: [
        { tool_name: "get_weather", input_args: { city: "Oslo" }, id: "tu_1" },
        { tool_name: "get_weather", input_args: { city: "Rome" }, id: "tu_2" },
      ],
      stop_reason: "tool_use",
      tokens_in: 30,
      tokens_out: 12,
    });
    expect(result.messages[0]).toEqual({
      sender: "agent",
      text: "Let me check.",
      tool_calls: [
        { tool_name: "get_weather", input_args: { city: "Oslo" }, id: "tu_1" },
        { tool_name: "get_weather", input_args: { city: "Rome" }, id: "tu_2" },
      ],
      reasoning_content: "thinking",
      // Unsigned: kept with the message, never sent back.
      reasoning_blocks: [{ type: "thinking", text: "thinking", provider: "bedrock" }],
      provider: "bedrock",
    });

    const req = server.received[0]!;
    expect(req.path).toBe("/model/anthropic.claude-3-5-sonnet-20241022-v2%3A0/converse-stream");
    expect(req.headers["authorization"]).toMatch(
      /^AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE\/\d{8}\/eu-west-1\/bedrock\/aws4_request, SignedHeaders=accept;content-type;host;x-amz-date;x-amz-security-token, Signature=[0-9a-f]{64}$/,
    );
    expect(req.headers["x-amz-security-token"]).toBe("tok");
    expect(req.body).toEqual({
      messages: [{ role: "user", content: [{ text: "Weather?" }] }],
      system: [{ text: "Be brief." }],
      inferenceConfig: { maxTokens: 4096 },
      toolConfig: {
        tools: [
          {
            toolSpec: {
              name: "get_weather",
              description: "Weather.",
              inputSchema: { json: { type: "object", properties: { city: { type: "string" } }, required: ["city"] } },
            },
          },
        ],
      },
    });
  });

  it("maps tool results (status error), images and documents; merges same-role turns", async () => {
    const { adapter, server } = await adapterFor([
      eventStream([
        ev("messageStop", { stopReason: "end_turn" }),
        ev("metadata", { usage: { inputTokens: 1, outputTokens: 1 } }),
      ]),
    ]);
    const history: Message[] = [
      {
        sender: "user",
        text: "See",
        content: [{ type: "image", source: { type: "base64", media_type: "image/jpeg", data: "AAA" } }],
      },
      {
        sender: "user",
        text: "",
        content: [{ type: "document", source: { type: "base64", media_type: "application/pdf", data: "BBB" } }],
      },
      { sender: "agent", text: "", tool_calls: [{ tool_name: "t", input_args: { a: 1 }, id: "tu_9" }] },
      {
        sender: "user",
        text: "",
        tool_results: [
          {
            tool_name: "t",
            call_id: "tu_9",
            result: { status: "error", data: null, message: "bad", renderData: "secret" },
          },
        ],
      },
    ];
    await adapter.prompt({ messages: history }, recorder().notify);
    expect(server.received[0]!.body.messages).toEqual([
      {
        role: "user",
        content: [
          { text: "See" },
          { image: { format: "jpeg", source: { bytes: "AAA" } } },
          { document: { format: "pdf", name: "document 1", source: { bytes: "BBB" } } },
        ],
      },
      { role: "assistant", content: [{ toolUse: { toolUseId: "tu_9", name: "t", input: { a: 1 } } }] },
      {
        role: "user",
        content: [
          {
            toolResult: {
              toolUseId: "tu_9",
              content: [{ json: { status: "error", data: null, message: "bad" } }],
              status: "error",
            },
          },
        ],
      },
    ]);
    expect(server.received[0]!.raw).not.toContain("secret");
  });

  it("an exception frame mid-stream is a typed ProviderError", async () => {
    const { adapter } = await adapterFor([
      eventStream([toolStream[0]!, toolStream[2]!, exception("throttlingException", "Too many requests")]),
    ]);
    const rec = recorder();
    await expect(adapter.prompt({ messages: [{ sender: "user", text: "a" }] }, rec.notify)).rejects.toMatchObject({
      provider: "bedrock",
      status: 429,
      retryable: true,
      providerMessage: "Too many requests",
      providerCode: "throttlingException",
    });
    expect(rec.events).toEqual([{ type: "text_delta", data: { text: "Let me " } }]);
  });

  it("a connection dropped mid-frame is a ProviderError", async () => {
    const { adapter } = await adapterFor([eventStream(toolStream.slice(0, 4), { cutLast: 5 })]);
    const error = await adapter
      .prompt({ messages: [{ sender: "user", text: "a" }] }, recorder().notify)
      .catch((e: unknown) => e);
    expect(ProviderError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ status: 0, retryable: true });
  });

  it("garbage instead of an event stream is a malformed-stream ProviderError", async () => {
    const { adapter } = await adapterFor([
      (_req, res) => {
        res.writeHead(200, { "content-type": "application/vnd.amazon.eventstream" });
        res.end("this is definitely not an event stream");
      },
    ]);
    await expect(
      adapter.prompt({ messages: [{ sender: "user", text: "a" }] }, recorder().notify),
    ).rejects.toMatchObject({
      providerMessage: expect.stringContaining("malformed event stream"),
    });
  });

  it("abort cancels the request with AbortError", async () => {
    const { adapter } = await adapterFor([
      (_req, res) => {
        res.writeHead(200, { "content-type": "application/vnd.amazon.eventstream" });
        res.write(toolStream[0]!);
      },
    ]);
    const controller = new AbortController();
    const pending = adapter.prompt({ messages: [{ sender: "user", text: "a" }] }, recorder().notify, controller.signal);
    await new Promise((r) => setTimeout(r, 50));
    controller.abort();
    await expect(pending).rejects.toBeInstanceOf(AbortError);
  });
});

describe("BedrockAdapter — credentials provider", () => {
  it("asks a provider (e.g. the AWS SDK's fromNodeProviderChain) for credentials on every request", async () => {
    let calls = 0;
    const provider = async () => {
      calls++;
      return { accessKeyId: `AKIDROTATED${calls}`, secretAccessKey: "secret", sessionToken: "session" };
    };
    const answer = json(200, {
      output: { message: { role: "assistant", content: [{ text: "ok" }] } },
      stopReason: "end_turn",
      usage: { inputTokens: 1, outputTokens: 1 },
    });
    const { adapter, server } = await adapterFor([answer, answer], { stream: false, credentials: provider });
    const rec = recorder();
    await adapter.prompt({ messages: [{ sender: "user", text: "a" }] }, rec.notify);
    await adapter.prompt({ messages: [{ sender: "user", text: "b" }] }, rec.notify);
    expect(calls).toBe(2);
    expect(server.received[0]!.headers["authorization"]).toContain("Credential=AKIDROTATED1/");
    expect(server.received[1]!.headers["authorization"]).toContain("Credential=AKIDROTATED2/");
    expect(server.received[1]!.headers["x-amz-security-token"]).toBe("session");
  });
});

describe("BedrockAdapter — Converse and HTTP errors", () => {
  it("non-streaming: one model_response; bearer token auth", async () => {
    const { adapter, server } = await adapterFor(
      [
        json(200, {
          output: {
            message: {
              role: "assistant",
              content: [{ text: "Hi" }, { toolUse: { toolUseId: "tu", name: "get_weather", input: { city: "Lima" } } }],
            },
          },
          stopReason: "tool_use",
          usage: { inputTokens: 8, outputTokens: 4, cacheReadInputTokens: 100 },
        }),
      ],
      { stream: false, credentials: undefined, bearerToken: "bedrock-api-key" },
    );
    const rec = recorder();
    const result = await adapter.prompt({ messages: [{ sender: "user", text: "q" }] }, rec.notify);
    expect(result.messages).toEqual([
      {
        sender: "agent",
        text: "Hi",
        tool_calls: [{ tool_name: "get_weather", input_args: { city: "Lima" }, id: "tu" }],
        provider: "bedrock",
      },
    ]);
    expect(rec.events).toEqual([
      {
        type: "model_response",
        data: {
          text: "Hi",
          tool_calls: [{ tool_name: "get_weather", input_args: { city: "Lima" }, id: "tu" }],
          stop_reason: "tool_use",
          tokens_in: 108,
          tokens_out: 4,
        },
      },
    ]);
    expect(server.received[0]!.path).toBe("/model/anthropic.claude-3-5-sonnet-20241022-v2%3A0/converse");
    expect(server.received[0]!.headers["authorization"]).toBe("Bearer bedrock-api-key");
  });

  it("400 ValidationException is not retried; 429 ThrottlingException is", async () => {
    const { adapter, server } = await adapterFor([
      json(400, { message: "Malformed input request" }, { "x-amzn-errortype": "ValidationException" }),
      json(429, { message: "Too many tokens" }, { "retry-after": "0" }),
      eventStream([
        ev("messageStop", { stopReason: "end_turn" }),
        ev("metadata", { usage: { inputTokens: 1, outputTokens: 1 } }),
      ]),
    ]);
    await expect(
      adapter.prompt({ messages: [{ sender: "user", text: "a" }] }, recorder().notify),
    ).rejects.toMatchObject({
      status: 400,
      retryable: false,
      providerMessage: "Malformed input request",
    });
    const result = await adapter.prompt({ messages: [{ sender: "user", text: "a" }] }, recorder().notify);
    expect(result.messages[0]!.text).toBe("");
    expect(server.received).toHaveLength(3);
  });
});
