import { afterEach, describe, expect, it } from "vitest";
import { AbortError, type SubscriberEvent } from "glove-core";
import { createRelayModel } from "glove-core/models/relay";
import type { Listening } from "../../src/http/node-listen.js";
import { createModelRelay } from "../../src/relay/index.js";
import { startFakeUpstream, type FakeUpstream } from "./support/fake-upstream.js";
import { testAuthenticate, TOKEN, until, userMessage } from "./support/harness.js";
import { PROMPT_WAIT_MS } from "../../../../test-support/timeouts.js";

let upstream: FakeUpstream | undefined;
let server: Listening | undefined;
afterEach(async () => {
  await server?.close();
  await upstream?.close();
  server = upstream = undefined;
});

/** A relay in front of the fake upstream through createAdapter's real "openai" adapter. */
async function openaiRelay(
  fake: FakeUpstream,
  limits: { maxTokens?: number; concurrentPerPrincipal?: number } = {},
): Promise<Listening> {
  const relay = createModelRelay({
    authenticate: testAuthenticate,
    provider: "openai",
    apiKey: "sk-test-key",
    baseURL: fake.baseURL,
    adapterOptions: { maxRetries: 0 },
    models: ["gpt-4.1-mini"],
    limits,
    keepAliveMs: 0,
  });
  return relay.listen();
}

const body = (extra: Record<string, unknown> = {}) => JSON.stringify({ messages: [userMessage("count")], ...extra });

describe("the relay in front of a real provider adapter", () => {
  it("streams the provider's answer, sending the server's key and the capped max tokens upstream", async () => {
    upstream = await startFakeUpstream({ kind: "finite", words: ["Hello", " from", " upstream"] });
    server = await openaiRelay(upstream, { maxTokens: 256 });
    const events: SubscriberEvent[] = [];
    const model = createRelayModel({ endpoint: server.url, headers: { authorization: TOKEN }, maxTokens: 99_999 });
    const result = await model.prompt(
      { messages: [{ sender: "user", text: "hi" }], systemPrompt: "Be kind." },
      async (type, data) => {
        events.push({ type, ...data } as SubscriberEvent);
      },
    );
    expect(result).toEqual({
      messages: [{ sender: "agent", text: "Hello from upstream", provider: "openai" }],
      tokens_in: 11,
      tokens_out: 5,
    });
    expect(events.map((e) => e.type)).toEqual(["text_delta", "text_delta", "text_delta", "model_response_complete"]);
    const sent = upstream.requests[0]!;
    expect(sent.path).toBe("/v1/chat/completions");
    expect(sent.headers["authorization"]).toBe("Bearer sk-test-key");
    expect(sent.body["model"]).toBe("gpt-4.1-mini");
    expect(sent.body["max_completion_tokens"]).toBe(256);
    expect(sent.body["messages"]).toEqual([
      { role: "system", content: "Be kind." },
      { role: "user", content: "hi" },
    ]);
  });

  it("aborts the upstream request when the client's fetch is aborted, and frees the principal's slot", async () => {
    upstream = await startFakeUpstream({ kind: "slow", intervalMs: 25 });
    server = await openaiRelay(upstream, { concurrentPerPrincipal: 1 });
    const controller = new AbortController();
    const response = await fetch(server.url, {
      method: "POST",
      headers: { authorization: TOKEN, "content-type": "application/json" },
      body: body(),
      signal: controller.signal,
    });
    expect(response.status).toBe(200);
    const reader = response.body!.getReader();
    const first = await reader.read();
    expect(new TextDecoder().decode(first.value)).toContain("event: text_delta");
    expect(upstream.requests).toHaveLength(1);
    expect(upstream.requests[0]!.closed).toBe(false);

    controller.abort();
    await until(() => upstream!.requests[0]!.closed);

    // The slot is released once the aborted stream has wound down.
    let status = 0;
    async function attempt(): Promise<void> {
      const again = await fetch(server!.url, {
        method: "POST",
        headers: { authorization: TOKEN, "content-type": "application/json" },
        body: body(),
        signal: AbortSignal.timeout(PROMPT_WAIT_MS),
      });
      status = again.status;
      await again.body?.cancel();
    }
    for (const end = Date.now() + PROMPT_WAIT_MS; Date.now() < end && (status === 0 || status === 429);) {
      await attempt();
      if (status === 429) await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(status).toBe(200);
  });

  it("aborts the upstream request when a browser-side prompt is aborted through its signal", async () => {
    upstream = await startFakeUpstream({ kind: "slow", intervalMs: 25 });
    server = await openaiRelay(upstream);
    const model = createRelayModel({ endpoint: server.url, headers: { authorization: TOKEN } });
    const controller = new AbortController();
    let deltas = 0;
    const error = await model
      .prompt(
        { messages: [{ sender: "user", text: "count" }] },
        async (type) => {
          if (type === "text_delta" && ++deltas === 2) controller.abort();
        },
        controller.signal,
      )
      .catch((e: unknown) => e);
    expect(AbortError.isInstance(error)).toBe(true);
    await until(() => upstream!.requests[0]?.closed === true);
  });
});
