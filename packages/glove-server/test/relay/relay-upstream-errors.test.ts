import { inspect } from "node:util";
import { afterEach, describe, expect, it } from "vitest";
import { createAdapter, ProviderError } from "glove-core";
import { createRelayModel } from "glove-core/models/relay";
import { createModelRelay, type ModelRelayOptions } from "../../src/relay/index.js";
import { startFakeUpstream, type Respond } from "./support/fake-upstream.js";
import { post, readEvents, testAuthenticate, TOKEN, userMessage } from "./support/harness.js";

// Upstream error bodies reach the relay's log, redacted, and never its clients:
// what a provider (or a gateway in front of it) says may hold stack traces,
// internal paths and the server's own key.
const KEY = "sk-test-Z9xQ7vLmN3pR8sTu";
const TRACE = 'Traceback (most recent call last):\n  File "/srv/gateway/internal/proxy.py", line 88, in forward';
const LEAKY = `${TRACE}\nupstream said no; request headers were Authorization: Bearer ${KEY}, x-backup-key: AKIAIOSFODNN7EXAMPLE`;

/** What the running test opened (relay, then fake provider), closed after it in that order. */
const opened: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  for (const thing of opened.splice(0)) await thing.close();
});

interface Relayed {
  url: string;
  /** What the relay logged: its message and the error as util.inspect prints it (stack, fields, causes). */
  logged: string[];
}

/** A relay in front of a fake provider answering with `respond`; `options` may depend on the provider's base URL. */
async function relayTo(
  respond: Respond,
  options: Partial<ModelRelayOptions> | ((baseURL: string) => Partial<ModelRelayOptions>) = {},
): Promise<Relayed> {
  const upstream = await startFakeUpstream({ kind: "respond", respond });
  opened.push(upstream);
  const logged: string[] = [];
  const relay = createModelRelay({
    authenticate: testAuthenticate,
    provider: "openai",
    apiKey: KEY,
    baseURL: upstream.baseURL,
    adapterOptions: { maxRetries: 0 },
    models: ["gpt-4.1-mini"],
    keepAliveMs: 0,
    log: (message, error) => logged.push(`${message}\n${inspect(error, { depth: 8 })}`),
    ...(typeof options === "function" ? options(upstream.baseURL) : options),
  });
  const server = await relay.listen();
  opened.unshift(server);
  return { url: server.url, logged };
}

const status =
  (code: number, body: string, headers: Record<string, string> = {}): Respond =>
  (res) => {
    res.writeHead(code, { "content-type": "application/json", ...headers });
    res.end(body);
  };

const openaiError = (message: string, type?: string) =>
  JSON.stringify({ error: { message, ...(type ? { type } : {}) } });

/** The client's view: the whole SSE body, and its final error event. */
async function ask(url: string): Promise<{ text: string; error: Record<string, unknown> }> {
  const response = await post(url, { messages: [userMessage()] });
  expect(response.status).toBe(200);
  const text = await response.clone().text();
  const events = await readEvents(response);
  expect(events.at(-1)!.event).toBe("error");
  return { text, error: events.at(-1)!.data as Record<string, unknown> };
}

function expectNothingLeaked(clientText: string): void {
  for (const secret of [KEY, "AKIAIOSFODNN7EXAMPLE", "Traceback", "/srv/gateway", "upstream said no"])
    expect(clientText).not.toContain(secret);
}

function expectRedactedLog(logged: string[]): void {
  const log = logged.join("\n");
  expect(log).toContain("/srv/gateway/internal/proxy.py"); // the body stays for the operator…
  expect(log).toContain("[redacted]");
  expect(log).not.toContain(KEY); // …without the secrets in it
  expect(log).not.toContain("AKIAIOSFODNN7EXAMPLE");
}

describe("the relay's upstream errors", () => {
  it("a 500 with a leaky body: the client gets the status and a generic message, the log the redacted body", async () => {
    const { url, logged } = await relayTo(status(500, openaiError(LEAKY, "server_error")));
    const { text, error } = await ask(url);
    expect(error).toEqual({
      code: "GLOVE_PROVIDER",
      message: "The model provider (openai) returned HTTP 500; try again later.",
      status: 500,
      retryable: true,
      providerCode: "server_error",
    });
    expectNothingLeaked(text);
    expectRedactedLog(logged);
  });

  it("a non-JSON error page is handled the same way, also without streaming (stream: false)", async () => {
    const { url, logged } = await relayTo(status(502, `<html><pre>${LEAKY}</pre></html>`), {
      adapterOptions: { maxRetries: 0, stream: false },
    });
    const { text, error } = await ask(url);
    expect(error).toMatchObject({
      status: 502,
      message: "The model provider (openai) returned HTTP 502; try again later.",
    });
    expect(error).not.toHaveProperty("providerCode");
    expectNothingLeaked(text);
    expectRedactedLog(logged);
  });

  it("keeps the useful classification: 429 with retry-after, refused credentials, refused requests", async () => {
    const answers: Respond[] = [
      status(429, openaiError(LEAKY, "rate_limit_exceeded"), { "retry-after": "7" }),
      status(401, openaiError(`Incorrect API key provided: ${KEY}`, "invalid_api_key")),
      status(400, openaiError(LEAKY, "invalid_request_error")),
      status(400, openaiError(LEAKY, "context_length_exceeded")),
      status(400, openaiError(LEAKY, `custom_${KEY}`)),
    ];
    const { url, logged } = await relayTo((res, request) => answers.shift()!(res, request));
    const limited = await ask(url);
    expect(limited.error).toMatchObject({
      status: 429,
      retryable: true,
      retryAfterMs: 7000,
      providerCode: "rate_limit_exceeded",
    });
    expect(limited.error["message"]).toBe(
      "The model provider (openai) is rate limiting this server (HTTP 429); retry in 7 s.",
    );
    const refusedKey = await ask(url);
    expect(refusedKey.error).toMatchObject({ status: 401, retryable: false, providerCode: "invalid_api_key" });
    expect(refusedKey.error["message"]).toContain("refused the server's provider credentials (HTTP 401)");
    const refused = await ask(url);
    expect(refused.error["message"]).toBe(
      "The model provider (openai) refused the request (HTTP 400): check the messages, tools and options sent; the server log has the provider's reason.",
    );
    const tooLong = await ask(url);
    expect(tooLong.error["message"]).toContain(
      "the conversation is too long for the model: compact it or start a new one",
    );
    // A code the relay does not know is the provider's free text: only logged.
    const odd = await ask(url);
    expect(odd.error).not.toHaveProperty("providerCode");
    for (const answer of [limited, refusedKey, refused, tooLong, odd]) expectNothingLeaked(answer.text);
    expect(logged).toHaveLength(5);
    expectRedactedLog(logged);
  });

  it("an error event in the middle of the stream: what streamed stays, the error is generic", async () => {
    const { url, logged } = await relayTo((res) => {
      res.writeHead(200, { "content-type": "text/event-stream" });
      res.write(
        `data: ${JSON.stringify({ choices: [{ index: 0, delta: { content: "Hel" }, finish_reason: null }] })}\n\n`,
      );
      res.end(`data: ${JSON.stringify({ error: { message: LEAKY, code: "weird" } })}\n\n`);
    });
    const response = await post(url, { messages: [userMessage()] });
    const text = await response.clone().text();
    const events = await readEvents(response);
    expect(events.map((e) => e.event)).toEqual(["text_delta", "error"]);
    expect(events[1]!.data).toEqual({
      code: "GLOVE_PROVIDER",
      message:
        "The model provider (openai) reported an error or sent an answer the server could not read; try again, and if it persists, the server log has details.",
      status: 0,
      retryable: false,
    });
    expectNothingLeaked(text);
    expectRedactedLog(logged);
  });

  it("an Anthropic error event mid-stream keeps its status and well-known code", async () => {
    const { url, logged } = await relayTo(
      (res) => {
        res.writeHead(200, { "content-type": "text/event-stream" });
        res.end(
          `event: error\ndata: ${JSON.stringify({ type: "error", error: { type: "overloaded_error", message: LEAKY } })}\n\n`,
        );
      },
      { provider: "anthropic", models: ["claude-sonnet-4-20250514"] },
    );
    const { text, error } = await ask(url);
    expect(error).toMatchObject({ status: 529, retryable: true, providerCode: "overloaded_error" });
    expect(error["message"]).toBe("The model provider (anthropic) returned HTTP 529; try again later.");
    expectNothingLeaked(text);
    expectRedactedLog(logged);
  });

  it("a provider function's own key is redacted when listed in `redact`; the browser's ProviderError holds no body", async () => {
    const own = "internal-gateway-token-0042";
    const { url, logged } = await relayTo(status(503, `gateway ${own} failed: ${LEAKY}`), (baseURL) => ({
      provider: (model) => createAdapter({ provider: "openai", model, apiKey: own, baseURL, maxRetries: 0 }),
      redact: [own],
    }));
    const model = createRelayModel({ endpoint: url, headers: { authorization: TOKEN } });
    const error = await model
      .prompt({ messages: [{ sender: "user", text: "hi" }] }, async () => {})
      .catch((e: unknown) => e);
    expect(ProviderError.isInstance(error)).toBe(true);
    const e = error as ProviderError;
    expect([e.status, e.retryable]).toEqual([503, true]);
    expect(e.providerMessage).toBe("The model provider (openai) returned HTTP 503; try again later.");
    expectNothingLeaked(`${e.message} ${e.stack ?? ""}`);
    expect(e.message).not.toContain(own);
    const log = logged.join("\n");
    expect(log).not.toContain(own);
    expect(log).toContain("gateway [redacted] failed");
  });
});
