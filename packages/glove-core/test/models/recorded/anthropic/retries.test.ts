/**
 * Retries against Anthropic's documented error answers, over real sockets: 429 with retry-after,
 * 529 overloaded, retry-after-ms, x-should-retry, and an overloaded `error` event inside a 200
 * stream — retried only while nothing has reached subscribers.
 */
import { describe, expect, it } from "vitest";
import { ProviderError, type Message } from "glove-core";
import { replayServers, type RecordedResponse } from "../support/index.js";
import { adapter, events, recorded } from "./harness.js";

const startServer = replayServers();

const messages: Message[] = [{ sender: "user", text: "925 / 5?" }];
const withHeaders = (r: RecordedResponse, headers: Record<string, string>): RecordedResponse => ({
  ...r,
  headers: { ...r.headers, ...headers },
});

async function failure(run: Promise<unknown>): Promise<ProviderError> {
  const error = await run.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!ProviderError.isInstance(error)) throw new Error(`expected a ProviderError, got ${String(error)}`);
  return error;
}

describe("Anthropic error statuses", () => {
  it("429 waits what retry-after says, then succeeds", async () => {
    const server = await startServer([{ response: recorded("rate-limited") }, { response: recorded("thinking-text") }]);
    const started = Date.now();
    const result = await adapter({ baseURL: server.url }).prompt({ messages }, events().notify);
    expect(Date.now() - started).toBeGreaterThanOrEqual(950);
    expect(result.messages[0]!.text).toBe("925 ÷ 5 = 185");
    expect(server.script.requests).toHaveLength(2);
  });

  it("a retry-after longer than maxRetryDelayMs gives up at once, saying how long the provider asked for", async () => {
    const server = await startServer([{ response: recorded("rate-limited") }, { response: recorded("thinking-text") }]);
    const error = await failure(
      adapter({ baseURL: server.url, maxRetryDelayMs: 500 }).prompt({ messages }, events().notify),
    );
    expect(error).toMatchObject({ status: 429, retryable: true, providerCode: "rate_limit_error", retryAfterMs: 1000 });
    expect(server.script.requests).toHaveLength(1);
  });

  it("retry-after-ms wins over retry-after", async () => {
    const server = await startServer([
      { response: withHeaders(recorded("rate-limited"), { "retry-after": "30", "retry-after-ms": "20" }) },
      { response: recorded("thinking-text") },
    ]);
    const started = Date.now();
    await adapter({ baseURL: server.url }).prompt({ messages }, events().notify);
    // Well under the 30 s retry-after it must not have waited; no tighter, as a loaded machine is slow.
    expect(Date.now() - started).toBeLessThan(20_000);
    expect(server.script.requests).toHaveLength(2);
  });

  it("529 overloaded is retried with backoff; when retries run out it surfaces as a typed, retryable error", async () => {
    let server = await startServer([{ response: recorded("overloaded") }, { response: recorded("thinking-text") }]);
    const ok = await adapter({ baseURL: server.url }).prompt({ messages }, events().notify);
    expect(ok.messages[0]!.text).toBe("925 ÷ 5 = 185");
    await server.close();

    server = await startServer([{ response: recorded("overloaded") }, { response: recorded("overloaded") }]);
    const error = await failure(adapter({ baseURL: server.url, maxRetries: 1 }).prompt({ messages }, events().notify));
    expect(error).toMatchObject({
      status: 529,
      retryable: true,
      providerCode: "overloaded_error",
      providerMessage: "Overloaded",
    });
    expect(server.script.requests).toHaveLength(2);
  });

  it("the recorded 529 body (with its request_id) is read like the documented one: retried, then typed", async () => {
    let server = await startServer([
      { response: recorded("overloaded-recorded") },
      { response: recorded("thinking-text") },
    ]);
    const ok = await adapter({ baseURL: server.url }).prompt({ messages }, events().notify);
    expect(ok.messages[0]!.text).toBe("925 ÷ 5 = 185");
    expect(server.script.requests).toHaveLength(2);
    await server.close();

    server = await startServer([{ response: recorded("overloaded-recorded") }]);
    const error = await failure(adapter({ baseURL: server.url, maxRetries: 0 }).prompt({ messages }, events().notify));
    expect(error).toMatchObject({
      status: 529,
      retryable: true,
      providerCode: "overloaded_error",
      providerMessage: "Overloaded",
    });
  });

  it("a recorded 400 invalid_request_error is not retried and keeps the API's message", async () => {
    const server = await startServer([
      { response: recorded("invalid-request-recorded") },
      { response: recorded("thinking-text") },
    ]);
    const error = await failure(adapter({ baseURL: server.url }).prompt({ messages }, events().notify));
    expect(error).toMatchObject({ status: 400, retryable: false, providerCode: "invalid_request_error" });
    expect(error.providerMessage).toMatch(
      /^messages\.2\.content\.0: unexpected `tool_use_id` found in `tool_result` blocks/,
    );
    expect(server.script.requests).toHaveLength(1);
  });

  it("x-should-retry: false is obeyed even on 529", async () => {
    const server = await startServer([
      { response: withHeaders(recorded("overloaded"), { "x-should-retry": "false" }) },
      { response: recorded("thinking-text") },
    ]);
    const error = await failure(adapter({ baseURL: server.url }).prompt({ messages }, events().notify));
    expect(error).toMatchObject({ status: 529, retryable: false });
    expect(server.script.requests).toHaveLength(1);
  });
});

describe("an overloaded error event inside a 200 stream", () => {
  it("before any output: the prompt is sent again and subscribers only see the second answer", async () => {
    const server = await startServer([
      { response: recorded("overloaded-mid-stream") },
      { response: recorded("thinking-text") },
    ]);
    const seen = events();
    const result = await adapter({ baseURL: server.url }).prompt({ messages }, seen.notify);
    expect(result.messages[0]!.text).toBe("925 ÷ 5 = 185");
    expect(server.script.requests).toHaveLength(2);
    expect(server.script.requests[1]!.raw).toBe(server.script.requests[0]!.raw);
    expect(
      seen.list
        .filter((e) => e.type === "text_delta")
        .map((e) => (e.data as { text: string }).text)
        .join(""),
    ).toBe("925 ÷ 5 = 185");
    expect(seen.list.filter((e) => e.type === "model_response_complete")).toHaveLength(1);
  });

  it("after text went out: not retried (a second answer would be glued to the first), the typed error is thrown", async () => {
    // The recorded thinking stream cut after its first text delta, followed by the documented error event.
    const whole = new TextDecoder().decode(recorded("thinking-text").body);
    const head = whole.slice(0, whole.indexOf("\n\n", whole.indexOf('"index":1,"delta"')) + 2);
    const error =
      'event: error\ndata: {"type": "error", "error": {"type": "overloaded_error", "message": "Overloaded"}}\n\n';
    const broken: RecordedResponse = {
      status: 200,
      headers: { "content-type": "text/event-stream" },
      body: new TextEncoder().encode(head + error),
    };
    const server = await startServer([{ response: broken }, { response: recorded("thinking-text") }]);
    const seen = events();
    const thrown = await failure(adapter({ baseURL: server.url }).prompt({ messages }, seen.notify));
    expect(thrown).toMatchObject({ status: 529, providerCode: "overloaded_error" });
    expect(server.script.requests).toHaveLength(1);
    expect(seen.list.map((e) => e.type)).toEqual(["text_delta"]);
  });

  it("counts against maxRetries like an error status", async () => {
    const server = await startServer([
      { response: recorded("overloaded-mid-stream") },
      { response: recorded("overloaded-mid-stream") },
      { response: recorded("thinking-text") },
    ]);
    const thrown = await failure(adapter({ baseURL: server.url, maxRetries: 1 }).prompt({ messages }, events().notify));
    expect(thrown).toMatchObject({ status: 529, providerCode: "overloaded_error" });
    expect(server.script.requests).toHaveLength(2);
  });
});
