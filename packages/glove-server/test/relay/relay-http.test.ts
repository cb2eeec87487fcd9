import { afterEach, describe, expect, it } from "vitest";
import { ConfigurationError, ProviderError } from "glove-core";
import { createModelRelay, RELAY_DEFAULT_LIMITS } from "../../src/relay/index.js";
import {
  post,
  readEvents,
  startRelay,
  testAuthenticate,
  TOKEN,
  userMessage,
  type RunningRelay,
} from "./support/harness.js";

let running: RunningRelay | undefined;
afterEach(async () => {
  await running?.close();
  running = undefined;
});

async function errorOf(
  response: Response,
): Promise<{ code: string; message: string; issues?: Array<{ path: string; message: string }> }> {
  expect(response.headers.get("content-type")).toContain("application/json");
  const body = (await response.json()) as {
    error: { code: string; message: string; issues?: Array<{ path: string; message: string }> };
  };
  return body.error;
}

describe("createModelRelay: configuration", () => {
  const base = {
    authenticate: testAuthenticate,
    models: ["m"],
    provider: () => ({
      name: "x",
      prompt: async () => ({ messages: [], tokens_in: 0, tokens_out: 0 }),
      setSystemPrompt() {},
    }),
  };

  it("refuses to start without authenticate, without models, or with a bad limit", () => {
    const attempts = [
      () => createModelRelay({ ...base, authenticate: undefined as unknown as typeof testAuthenticate }),
      () => createModelRelay({ ...base, models: [] }),
      () => createModelRelay({ ...base, models: [""] }),
      () => createModelRelay({ ...base, limits: { maxTokens: 0 } }),
      () => createModelRelay({ ...base, limits: { bodyBytes: 1.5 } }),
      () => createModelRelay({ ...base, provider: undefined as unknown as "openai" }),
    ];
    for (const attempt of attempts) expect(ConfigurationError.isInstance(capture(attempt))).toBe(true);
    expect((capture(attempts[0]!) as Error).message).toContain("authenticate");
  });

  it("checks a named provider's key at creation", () => {
    const saved = process.env.OPENAI_API_KEY;
    delete process.env.OPENAI_API_KEY;
    try {
      const error = capture(() => createModelRelay({ ...base, provider: "openai" }));
      expect(ConfigurationError.isInstance(error)).toBe(true);
      expect((error as Error).message).toContain("OPENAI_API_KEY");
      expect(
        ConfigurationError.isInstance(capture(() => createModelRelay({ ...base, provider: "nope", apiKey: "k" }))),
      ).toBe(true);
      expect(() => createModelRelay({ ...base, provider: "openai", apiKey: "sk-test" })).not.toThrow();
    } finally {
      if (saved !== undefined) process.env.OPENAI_API_KEY = saved;
    }
  });

  it("has the documented default limits", () => {
    expect(RELAY_DEFAULT_LIMITS).toEqual({
      maxTokens: 4096,
      bodyBytes: 1048576,
      maxMessages: 1000,
      maxTools: 128,
      requestsPerMinute: 60,
      concurrentPerPrincipal: 4,
    });
  });
});

function capture(fn: () => unknown): unknown {
  try {
    fn();
  } catch (error) {
    return error;
  }
  return undefined;
}

describe("createModelRelay: refusals before streaming", () => {
  it("answers 405 to anything but POST", async () => {
    running = await startRelay([]);
    const response = await fetch(running.url, { headers: { authorization: TOKEN } });
    expect(response.status).toBe(405);
    expect(response.headers.get("allow")).toBe("POST");
    expect((await errorOf(response)).code).toBe("GLOVE_METHOD_NOT_ALLOWED");
  });

  it("answers 401 without a principal, before reading the body, and never reaches the model", async () => {
    running = await startRelay([{ text: "never" }]);
    for (const headers of [{}, { authorization: "Bearer wrong" }] as Array<Record<string, string>>) {
      const response = await post(running.url, { messages: [userMessage()] }, headers);
      expect(response.status).toBe(401);
      expect(response.headers.get("www-authenticate")).toBe("Bearer");
      expect((await errorOf(response)).code).toBe("GLOVE_UNAUTHORIZED");
    }
    expect(running.built).toHaveLength(0);
  });

  it("answers 403 for a model outside the allow-list, naming the allowed ones", async () => {
    running = await startRelay([{ text: "never" }]);
    const response = await post(running.url, { model: "gpt-5-expensive", messages: [userMessage()] });
    expect(response.status).toBe(403);
    const error = await errorOf(response);
    expect(error.code).toBe("GLOVE_MODEL_NOT_ALLOWED");
    expect(error.message).toContain("small-model, big-model");
    expect(running.built).toHaveLength(0);
  });

  it("answers 400 for malformed JSON and for a body that is not an object", async () => {
    running = await startRelay([]);
    for (const raw of ['{"messages": [', "[1,2]", "null", '"text"']) {
      const response = await post(running.url, raw);
      expect(response.status).toBe(400);
      expect((await errorOf(response)).code).toBe("GLOVE_BAD_REQUEST");
    }
  });

  it("answers 400 with one issue per bad field for an invalid body", async () => {
    running = await startRelay([]);
    const response = await post(running.url, {
      model: 42,
      messages: [
        { sender: "robot", text: 1 },
        { sender: "agent", text: "ok", tool_calls: [{ tool_name: "" }] },
      ],
      tools: [{ name: "t", description: "d", parameters: "not a schema" }],
      maxTokens: -5,
    });
    expect(response.status).toBe(400);
    const error = await errorOf(response);
    expect(error.code).toBe("GLOVE_BAD_REQUEST");
    const paths = error.issues!.map((i) => i.path);
    expect(paths).toEqual(
      expect.arrayContaining([
        "model",
        "messages.0.sender",
        "messages.0.text",
        "messages.1.tool_calls.0.tool_name",
        "tools.0.parameters",
        "maxTokens",
      ]),
    );
    for (const issue of error.issues!) expect(typeof issue.message).toBe("string");

    const empty = await post(running.url, "");
    expect(empty.status).toBe(400);
    expect((await errorOf(empty)).issues!.map((i) => i.path)).toEqual(["messages"]);
  });

  it("answers 400 for JSON nested too deep", async () => {
    running = await startRelay([]);
    const deep =
      '{"messages":[{"sender":"user","text":"x","tool_calls":[{"tool_name":"t","input_args":' +
      "[".repeat(5000) +
      "]".repeat(5000) +
      "}]}]}";
    const response = await post(running.url, deep);
    expect(response.status).toBe(400);
    expect((await errorOf(response)).message).toContain("deeper");
  });

  it("answers 413 for a body over limits.bodyBytes, and for too many messages or tools", async () => {
    running = await startRelay([], { limits: { bodyBytes: 2048, maxMessages: 3, maxTools: 1 } });
    const big = await post(running.url, { messages: [userMessage("x".repeat(5000))] });
    expect(big.status).toBe(413);
    expect((await errorOf(big)).code).toBe("GLOVE_TOO_LARGE");

    const many = await post(running.url, { messages: Array.from({ length: 4 }, () => userMessage()) });
    expect(many.status).toBe(413);
    expect((await errorOf(many)).message).toContain("at most 3");

    const tool = { name: "t", description: "d", parameters: { type: "object" } };
    const tools = await post(running.url, { messages: [userMessage()], tools: [tool, { ...tool, name: "u" }] });
    expect(tools.status).toBe(413);
  });

  it("answers 413 for a streamed body with no content-length that grows past the limit", async () => {
    running = await startRelay([], { limits: { bodyBytes: 4096 } });
    const chunk = new TextEncoder().encode(" ".repeat(1024));
    let sent = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        // About 1 MB with no content-length: only counting while reading catches it.
        if (sent++ < 1000) controller.enqueue(chunk);
        else controller.close();
      },
    });
    const response = await fetch(running.url, {
      method: "POST",
      headers: { authorization: TOKEN, "content-type": "application/json" },
      body,
      duplex: "half",
    } as RequestInit);
    expect(response.status).toBe(413);
  });

  it("answers 429 with retry-after once a principal spends its requests per minute, per principal", async () => {
    running = await startRelay(
      Array.from({ length: 3 }, () => ({ text: "ok" })),
      { limits: { requestsPerMinute: 2 } },
    );
    for (let i = 0; i < 2; i++) {
      const ok = await post(running.url, { messages: [userMessage()] });
      expect(ok.status).toBe(200);
      await ok.text();
    }
    const limited = await post(running.url, { messages: [userMessage()] });
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    expect((await errorOf(limited)).code).toBe("GLOVE_RATE_LIMITED");
    // Refused requests are counted before the body: an invalid one is refused the same way.
    expect((await post(running.url, "{oops")).status).toBe(429);
    // Another principal has its own budget.
    const other = await post(running.url, { messages: [userMessage()] }, { authorization: "Bearer user-2" });
    expect(other.status).toBe(200);
    await other.text();
  });

  it("answers 429 when a principal already has concurrentPerPrincipal streams open, and frees the slot after", async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    running = await startRelay(
      () => ({
        name: "slow",
        setSystemPrompt() {},
        async prompt(_request, notify) {
          await notify("text_delta", { text: "wait" });
          await gate;
          return { messages: [{ sender: "agent", text: "wait" }], tokens_in: 1, tokens_out: 1 };
        },
      }),
      { limits: { concurrentPerPrincipal: 1 } },
    );
    const first = await post(running.url, { messages: [userMessage()] });
    expect(first.status).toBe(200);
    const second = await post(running.url, { messages: [userMessage()] });
    expect(second.status).toBe(429);
    expect(second.headers.get("retry-after")).toBe("1");
    await second.text();
    release();
    expect((await readEvents(first)).map((e) => e.event)).toEqual(["text_delta", "result"]);
    const third = await post(running.url, { messages: [userMessage()] });
    expect(third.status).toBe(200);
    await third.text();
  });

  it("answers a logged 500 when authenticate throws or returns no id, never the error's text", async () => {
    running = await startRelay([], {
      authenticate: async (request) => {
        if (request.headers.get("x-mode") === "noid") return { id: "" };
        throw new Error("database password is hunter2");
      },
    });
    for (const mode of ["throw", "noid"]) {
      const response = await post(running.url, { messages: [userMessage()] }, { "x-mode": mode });
      expect(response.status).toBe(500);
      expect(await response.text()).not.toContain("hunter2");
    }
    expect(running.logged).toHaveLength(2);
  });
});

describe("createModelRelay: the stream", () => {
  it("streams every upstream event as SSE, then the result, with SSE headers", async () => {
    running = await startRelay([
      { text: "Hello there world", toolCalls: [{ name: "look", input: { q: "x" }, id: "call_1" }] },
    ]);
    const response = await post(running.url, { messages: [userMessage()], systemPrompt: "Be brief." });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/^text\/event-stream/);
    expect(response.headers.get("cache-control")).toContain("no-cache");
    expect(response.headers.get("x-accel-buffering")).toBe("no");
    const events = await readEvents(response);
    expect(events.map((e) => e.event)).toEqual([
      "text_delta",
      "text_delta",
      "text_delta",
      "tool_use",
      "model_response_complete",
      "result",
    ]);
    expect(
      events
        .slice(0, 3)
        .map((e) => (e.data as { text: string }).text)
        .join(""),
    ).toBe("Hello there world");
    expect(events[3]!.data).toEqual({ id: "call_1", name: "look", input: { q: "x" } });
    const result = events.at(-1)!.data as { messages: Array<{ text: string }>; tokens_in: number; tokens_out: number };
    expect(result.messages[0]!.text).toBe("Hello there world");
    expect(typeof result.tokens_in).toBe("number");
    const upstream = running.built[0]!.adapter.requests[0]!;
    expect(upstream.systemPrompt).toBe("Be brief.");
    expect(upstream.messages).toEqual([{ sender: "user", text: "hi" }]);
  });

  it("uses the first model by default and caps maxTokens (a larger request is lowered, a smaller one kept)", async () => {
    running = await startRelay(
      Array.from({ length: 3 }, () => ({ text: "ok" })),
      { limits: { maxTokens: 1000 } },
    );
    for (const body of [{}, { model: "big-model", maxTokens: 50_000 }, { maxTokens: 200 }]) {
      const response = await post(running.url, { messages: [userMessage()], ...body });
      expect(response.status).toBe(200);
      await response.text();
    }
    expect(running.built.map((b) => [b.model, b.maxTokens])).toEqual([
      ["small-model", 1000],
      ["big-model", 1000],
      ["small-model", 200],
    ]);
  });

  it("hands tools to the upstream as JSON Schema with a run that refuses, and drops unknown fields", async () => {
    running = await startRelay([{ text: "ok" }]);
    const parameters = { type: "object", properties: { city: { type: "string" } }, required: ["city"] };
    const response = await post(running.url, {
      messages: [{ sender: "user", text: "hi", pre_modified_text: "secret", extra: 1 }],
      tools: [{ name: "weather", description: "Weather.", parameters }],
      unknownTopLevel: true,
    });
    await response.text();
    const upstream = running.built[0]!.adapter.requests[0]!;
    expect(upstream.messages).toEqual([{ sender: "user", text: "hi" }]);
    const tool = upstream.tools![0]!;
    expect([tool.name, tool.description, tool.jsonSchema]).toEqual(["weather", "Weather.", parameters]);
    await expect(tool.run({ city: "x" })).rejects.toThrow(/never runs tools/);
  });

  it("ends with an error event (code and message, no stack) when the upstream fails mid-way", async () => {
    running = await startRelay(() => ({
      name: "failing",
      setSystemPrompt() {},
      async prompt(_request, notify) {
        await notify("text_delta", { text: "partial" });
        throw new ProviderError({
          provider: "openai",
          status: 503,
          retryable: true,
          providerMessage: "overloaded",
          providerCode: "server_error",
        });
      },
    }));
    const events = await readEvents(await post(running.url, { messages: [userMessage()] }));
    expect(events.map((e) => e.event)).toEqual(["text_delta", "error"]);
    // The relay's own words by status; the provider's text ("overloaded") only goes to the log.
    expect(events[1]!.data).toEqual({
      code: "GLOVE_PROVIDER",
      message: "The model provider (openai) returned HTTP 503; try again later.",
      status: 503,
      retryable: true,
      providerCode: "server_error",
    });
    expect(JSON.stringify(events)).not.toContain("overloaded");
    expect(running.logged.map((l) => (l.error as ProviderError).providerMessage)).toEqual(["overloaded"]);
  });

  it("hides upstream credential failures and unexpected errors from the client, logging them", async () => {
    const failures = [
      new ProviderError({
        provider: "openai",
        status: 401,
        retryable: false,
        providerMessage: "Incorrect API key provided: sk-****abcd",
      }),
      new TypeError("cannot read properties of undefined (secret internals)"),
    ];
    running = await startRelay(() => ({
      name: "failing",
      setSystemPrompt() {},
      prompt: async () => {
        throw failures.shift()!;
      },
    }));
    const keyFailure = await post(running.url, { messages: [userMessage()] });
    const keyText = await keyFailure.text();
    expect(keyText).toContain("refused the server's provider credentials");
    expect(keyText).not.toContain("abcd");
    const bug = await post(running.url, { messages: [userMessage()] });
    const bugText = await bug.text();
    expect(bugText).toContain("GLOVE_INTERNAL");
    expect(bugText).not.toContain("secret internals");
    expect(bugText).not.toMatch(/at .*\.ts/);
    expect(running.logged).toHaveLength(2);
  });

  it("writes keep-alive comments while the upstream is silent", async () => {
    running = await startRelay(
      () => ({
        name: "slow",
        setSystemPrompt() {},
        async prompt() {
          await new Promise((resolve) => setTimeout(resolve, 150));
          return { messages: [{ sender: "agent", text: "done" }], tokens_in: 1, tokens_out: 1 };
        },
      }),
      { keepAliveMs: 20 },
    );
    const text = await (await post(running.url, { messages: [userMessage()] })).text();
    expect(text).toMatch(/^: keep-alive\n\n/);
    expect(text.trimEnd().endsWith('"tokens_out":1}')).toBe(true);
  });
});
