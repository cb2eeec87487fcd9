import { afterEach, describe, expect, it } from "vitest";
import { AnthropicAdapter } from "glove-core/models/anthropic";
import { OpenAICompatAdapter } from "glove-core/models/openai-compat";
import { openAiAnswer } from "./fake-openai-answers.js";
import { json, named, recorder, sse, startFakeServer, type FakeServer, type Handler } from "./fake-server.js";

let server: FakeServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const hi = { messages: [{ sender: "user" as const, text: "hi" }] };
const openAiError = (message: string, type: string) => ({ error: { message, type } });
const answer = openAiAnswer();

async function openAi(handlers: Handler[], maxRetries = 2) {
  server = await startFakeServer(...handlers);
  return new OpenAICompatAdapter({
    model: "m",
    baseURL: `${server.url}/v1`,
    apiKey: "sk-test",
    retryBaseDelayMs: 5,
    maxRetries,
  });
}

const retries = (events: ReturnType<typeof recorder>["events"]) =>
  events.filter((e) => e.type === "model_retry").map((e) => e.data);

describe("model_retry events", () => {
  it("each status retry is told before the wait, with attempt, delay, status, code and reason", async () => {
    const adapter = await openAi([
      json(429, openAiError("Rate limit reached", "rate_limit_exceeded"), { "retry-after": "0" }),
      json(503, openAiError("Service unavailable", "server_error")),
      answer,
    ]);
    const rec = recorder();
    const result = await adapter.prompt(hi, rec.notify);
    expect(result.messages[0]!.text).toBe("ok");
    expect(retries(rec.events)).toEqual([
      {
        provider: "openai",
        attempt: 1,
        delay_ms: 0,
        status: 429,
        code: "rate_limit_exceeded",
        reason: "Rate limit reached",
      },
      {
        provider: "openai",
        attempt: 2,
        delay_ms: expect.any(Number),
        status: 503,
        code: "server_error",
        reason: "Service unavailable",
      },
    ]);
    // Told before the answer streamed: the retries come first.
    expect(rec.events.findIndex((e) => e.type === "text_delta")).toBe(2);
  });

  it("the last failure is not announced as a retry: maxRetries events, then the error", async () => {
    const adapter = await openAi([json(500, openAiError("boom", "server_error"))], 1);
    const rec = recorder();
    await expect(adapter.prompt(hi, rec.notify)).rejects.toMatchObject({ status: 500 });
    expect(retries(rec.events)).toHaveLength(1);
    expect(server!.received).toHaveLength(2);
  });

  it("a network failure is a retry with status 0 and no code", async () => {
    const adapter = new OpenAICompatAdapter({
      provider: "ollama",
      model: "m",
      baseURL: "http://127.0.0.1:9/v1",
      retryBaseDelayMs: 1,
      maxRetries: 1,
    });
    const rec = recorder();
    await expect(adapter.prompt(hi, rec.notify)).rejects.toMatchObject({ status: 0 });
    const [retry] = retries(rec.events);
    expect(retry).toMatchObject({ provider: "ollama", attempt: 1, status: 0 });
    expect(retry).not.toHaveProperty("code");
    expect(retry!.reason).toMatch(/^network error/);
  });

  it("a long provider message is cut to 200 characters, never splitting a character", async () => {
    const adapter = await openAi([json(503, openAiError("😀".repeat(500), "server_error")), answer]);
    const rec = recorder();
    await adapter.prompt(hi, rec.notify);
    const reason = retries(rec.events)[0]!.reason;
    expect(Array.from(reason)).toHaveLength(200);
    expect(reason.endsWith("😀…")).toBe(true);
  });

  it("a retryable error read from the body (Anthropic overloaded, nothing shown yet) is a retry too", async () => {
    const overloaded = sse([
      named("error", { type: "error", error: { type: "overloaded_error", message: "Overloaded" } }),
    ]);
    const anthropicAnswer = sse([
      named("message_start", {
        type: "message_start",
        message: {
          id: "m1",
          type: "message",
          role: "assistant",
          model: "c",
          content: [],
          stop_reason: null,
          usage: { input_tokens: 3, output_tokens: 1 },
        },
      }),
      named("content_block_start", {
        type: "content_block_start",
        index: 0,
        content_block: { type: "text", text: "" },
      }),
      named("content_block_delta", {
        type: "content_block_delta",
        index: 0,
        delta: { type: "text_delta", text: "ok" },
      }),
      named("content_block_stop", { type: "content_block_stop", index: 0 }),
      named("message_delta", {
        type: "message_delta",
        delta: { stop_reason: "end_turn" },
        usage: { output_tokens: 2 },
      }),
      named("message_stop", { type: "message_stop" }),
    ]);
    server = await startFakeServer(overloaded, anthropicAnswer);
    const adapter = new AnthropicAdapter({ model: "c", baseURL: server.url, apiKey: "ak-test", retryBaseDelayMs: 5 });
    const rec = recorder();
    const result = await adapter.prompt(hi, rec.notify);
    expect(result.messages[0]!.text).toBe("ok");
    expect(retries(rec.events)).toEqual([
      {
        provider: "anthropic",
        attempt: 1,
        delay_ms: expect.any(Number),
        status: 529,
        code: "overloaded_error",
        reason: "Overloaded",
      },
    ]);
  });

  it("a subscriber that throws on model_retry stops the call with its error, no further request", async () => {
    const adapter = await openAi([json(503, openAiError("busy", "server_error")), answer]);
    const refused = new Error("subscriber refused");
    const notify = async (type: string) => {
      if (type === "model_retry") throw refused;
    };
    await expect(adapter.prompt(hi, notify)).rejects.toBe(refused);
    expect(server!.received).toHaveLength(1);
  });
});
