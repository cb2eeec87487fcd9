import { SpanStatusCode } from "@opentelemetry/api";
import { OpenAICompatAdapter } from "glove-core/models/openai-compat";
import { afterEach, describe, expect, it } from "vitest";
import {
  openAiAnswer,
  openAiBusy as busy,
  openAiRateLimited as limited,
} from "../../glove-core/test/models/fake-openai-answers.js";
import { startFakeServer, type FakeServer, type Handler } from "../../glove-core/test/models/fake-server.js";
import { traceGlove } from "../src/index.js";
import { makeGlove, memoryTracing } from "./support/memory.js";

let server: FakeServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const answer = openAiAnswer();

/** A traced Glove whose model is a real OpenAI-compatible adapter talking to a provider on 127.0.0.1. */
async function tracedAgainst(...handlers: Handler[]) {
  server = await startFakeServer(...handlers);
  const model = new OpenAICompatAdapter({
    model: "m",
    baseURL: `${server.url}/v1`,
    apiKey: "sk-test",
    retryBaseDelayMs: 1,
    maxRetries: 2,
  });
  const t = memoryTracing();
  return { t, agent: traceGlove(makeGlove({ model }).build(), { tracer: t.tracer }) };
}

describe("glove-otel model-call retries", () => {
  it("each retry is a glove.model.retry event on the chat span, which counts them in glove.retries", async () => {
    const { t, agent } = await tracedAgainst(limited, busy, answer);
    await agent.processRequest("hi");
    const chat = t.named("chat openai:m");
    expect(chat.attributes["glove.retries"]).toBe(2);
    expect(chat.status.code).toBe(SpanStatusCode.UNSET);
    const retries = chat.events.filter((e) => e.name === "glove.model.retry");
    expect(retries.map((e) => e.attributes)).toEqual([
      {
        "glove.retry.attempt": 1,
        "glove.retry.delay_ms": 0,
        "error.type": "rate_limit_exceeded",
        "glove.retry.reason": "Rate limit reached",
        "http.response.status_code": 429,
      },
      {
        "glove.retry.attempt": 2,
        "glove.retry.delay_ms": expect.any(Number),
        "error.type": "server_error",
        "glove.retry.reason": "Service unavailable",
        "http.response.status_code": 503,
      },
    ]);
  });

  it("a call that fails every attempt: its chat span ends in error after its retries", async () => {
    const { t, agent } = await tracedAgainst(busy);
    await expect(agent.processRequest("hi")).rejects.toMatchObject({ status: 503 });
    expect(t.open.size).toBe(0);
    const chat = t.named("chat openai:m");
    expect(chat.attributes["glove.retries"]).toBe(2);
    expect(chat.attributes["error.type"]).toBe("ProviderError");
    expect(chat.status.code).toBe(SpanStatusCode.ERROR);
    expect(server!.received).toHaveLength(3);
  });
});
