import { describe, expect, it } from "vitest";
import { z } from "zod";
import {
  AbortError,
  ConfigurationError,
  ProviderError,
  type Message,
  type PromptRequest,
  type SubscriberEvent,
  type Tool,
} from "glove-core";
import { createRelayModel, RELAY_FORWARDED_EVENTS, type RelayRequestBody } from "glove-core/models/relay";

/** An SSE frame as the relay writes it. */
const frame = (event: string, data: unknown) => `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;

const RESULT = {
  messages: [
    { sender: "agent", text: "Héllo 👋 world", tool_calls: [{ tool_name: "look", input_args: { q: "x" }, id: "c1" }] },
  ],
  tokens_in: 12,
  tokens_out: 7,
};

const STREAM =
  ": keep-alive\n\n" +
  frame("text_delta", { text: "Héllo " }) +
  frame("text_delta", { text: "👋 world" }) +
  frame("future_event", { anything: true }) +
  frame("tool_use", { id: "c1", name: "look", input: { q: "x" } }) +
  frame("model_response_complete", {
    text: "Héllo 👋 world",
    tool_calls: RESULT.messages[0]!.tool_calls,
    stop_reason: "tool_use",
    tokens_in: 12,
    tokens_out: 7,
  }) +
  frame("result", RESULT);

const EXPECTED_EVENTS = [
  { type: "text_delta", text: "Héllo " },
  { type: "text_delta", text: "👋 world" },
  { type: "tool_use", id: "c1", name: "look", input: { q: "x" } },
  {
    type: "model_response_complete",
    text: "Héllo 👋 world",
    tool_calls: RESULT.messages[0]!.tool_calls,
    stop_reason: "tool_use",
    tokens_in: 12,
    tokens_out: 7,
  },
];

function bodyOf(chunks: Uint8Array[], options: { endEarly?: boolean; error?: Error } = {}): ReadableStream<Uint8Array> {
  let i = 0;
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      if (i < chunks.length) controller.enqueue(chunks[i++]!);
      else if (options.error) controller.error(options.error);
      else controller.close();
    },
  });
}

interface Call {
  url: string;
  init: RequestInit;
  body: RelayRequestBody;
}

/** A fetch answering every call with `respond`, recording what was sent. */
function stubFetch(respond: (call: Call) => Response | Promise<Response>): { fetch: typeof fetch; calls: Call[] } {
  const calls: Call[] = [];
  const fetchImpl = (async (input: string | URL | Request, init?: RequestInit) => {
    const call = { url: String(input), init: init ?? {}, body: JSON.parse(String(init?.body)) as RelayRequestBody };
    calls.push(call);
    init?.signal?.throwIfAborted();
    return respond(call);
  }) as typeof fetch;
  return { fetch: fetchImpl, calls };
}

const sse = (chunks: Uint8Array[] | string, init: ResponseInit = {}) =>
  new Response(bodyOf(typeof chunks === "string" ? [new TextEncoder().encode(chunks)] : chunks), {
    status: 200,
    headers: { "content-type": "text/event-stream; charset=utf-8" },
    ...init,
  });

const request = (
  messages: Message[] = [{ sender: "user", text: "hi" }],
  extra: Partial<PromptRequest> = {},
): PromptRequest => ({
  messages,
  ...extra,
});

async function run(fetchImpl: typeof fetch, req = request(), signal?: AbortSignal) {
  const events: SubscriberEvent[] = [];
  const model = createRelayModel({ endpoint: "http://relay.test/api/model", fetch: fetchImpl });
  const result = await model.prompt(
    req,
    async (type, data) => void events.push({ type, ...data } as SubscriberEvent),
    signal,
  );
  return { result, events };
}

async function failure(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error("expected a rejection");
}

describe("createRelayModel: the request", () => {
  it("POSTs JSON with the model, max tokens, system prompt, headers and tools as JSON Schema", async () => {
    const { fetch, calls } = stubFetch(() => sse(frame("result", RESULT)));
    const model = createRelayModel({
      endpoint: "http://relay.test/api/model",
      fetch,
      model: "gpt-4.1-mini",
      maxTokens: 500,
      headers: async () => ({ authorization: "Bearer t1" }),
    });
    model.setSystemPrompt("fallback prompt");
    const zodTool: Tool<unknown> = {
      name: "weather",
      description: "Weather for a city.",
      input_schema: z.object({ city: z.string(), days: z.number().int().optional() }) as z.ZodType<unknown>,
      run: async () => "sunny",
    };
    const rawTool: Tool<unknown> = {
      name: "raw",
      description: "Raw schema.",
      jsonSchema: { type: "object", properties: { a: { type: "string" } }, required: ["a"] },
      run: async () => "ok",
    };
    await model.prompt(request(undefined, { tools: [zodTool, rawTool], systemPrompt: "be brief" }), async () => {});
    await model.prompt(request(), async () => {});

    const [first, second] = calls;
    expect(first!.init.method).toBe("POST");
    const headers = first!.init.headers as Record<string, string>;
    expect(headers["content-type"]).toBe("application/json");
    expect(headers["authorization"]).toBe("Bearer t1");
    expect(first!.body.model).toBe("gpt-4.1-mini");
    expect(first!.body.maxTokens).toBe(500);
    expect(first!.body.systemPrompt).toBe("be brief");
    expect(first!.body.tools).toEqual([
      {
        name: "weather",
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
      { name: "raw", description: "Raw schema.", parameters: rawTool.jsonSchema },
    ]);
    // Without a system prompt in the request, the one set on the adapter is sent.
    expect(second!.body.systemPrompt).toBe("fallback prompt");
    expect(second!.body.tools).toBeUndefined();
  });

  it("keeps client-only message parts (renderData, summaries' arguments, pre-hook text) in the browser", async () => {
    const { fetch, calls } = stubFetch(() => sse(frame("result", RESULT)));
    const messages: Message[] = [
      { sender: "user", text: "expanded", pre_modified_text: "/skill raw" },
      { sender: "agent", text: "", tool_calls: [{ tool_name: "look", input_args: { q: 1 }, id: "c1" }] },
      {
        sender: "user",
        text: "",
        tool_results: [
          {
            tool_name: "look",
            call_id: "c1",
            result: {
              status: "success",
              data: { rows: 3 },
              renderData: { secret: "ui-only" },
              generateSummaryArgs: { big: "x" },
              summary: "3 rows",
            },
          },
        ],
      },
    ];
    await run(fetch, request(messages));
    const sent = calls[0]!.body.messages;
    expect(sent).toEqual([
      { sender: "user", text: "expanded" },
      { sender: "agent", text: "", tool_calls: [{ tool_name: "look", input_args: { q: 1 }, id: "c1" }] },
      {
        sender: "user",
        text: "",
        tool_results: [{ tool_name: "look", call_id: "c1", result: { status: "success", data: { rows: 3 } } }],
      },
    ]);
    expect(JSON.stringify(calls[0]!.body)).not.toContain("ui-only");
  });

  it("sends what the upstream adapter needs to continue its turns: reasoning blocks, refusals, provider and extras", async () => {
    const { fetch, calls } = stubFetch(() => sse(frame("result", RESULT)));
    const blocks = [
      { type: "thinking" as const, text: "Need the country.", signature: "c2ln", provider: "anthropic" },
      { type: "redacted_thinking" as const, data: "b3BhcXVl", provider: "anthropic" },
    ];
    const messages: Message[] = [
      { sender: "user", text: "q" },
      {
        sender: "agent",
        text: "Looking.",
        reasoning_content: "Need the country.",
        reasoning_blocks: blocks,
        provider: "gemini",
        provider_extras: { reasoning_details: [{ type: "reasoning.encrypted", data: "x" }] },
        tool_calls: [
          {
            tool_name: "look",
            input_args: {},
            id: "c1",
            provider_extras: { extra_content: { google: { thought_signature: "sig" } } },
          },
        ],
      },
      {
        sender: "user",
        text: "",
        tool_results: [{ tool_name: "look", call_id: "c1", result: { status: "success", data: 1 } }],
      },
      { sender: "agent", text: "I can't help with that.", is_refusal: true, provider: "openai" },
    ];
    await run(fetch, request(messages));
    expect(calls[0]!.body.messages).toEqual(messages);
  });

  it("sends a structured-output request as `output`, and by default reports no native mode so Glove also instructs the model", async () => {
    const { fetch, calls } = stubFetch(() => sse(frame("result", RESULT)));
    const output = {
      name: "event",
      description: "An event.",
      schema: { type: "object", properties: { a: { type: "string" } } },
    };
    await run(fetch, request(undefined, { output }));
    expect(calls[0]!.body.output).toEqual(output);
    expect(createRelayModel({ endpoint: "/x" }).supportsStructuredOutput).toBe(false);
    expect(createRelayModel({ endpoint: "/x", nativeStructuredOutput: true }).supportsStructuredOutput).toBe(true);
  });

  it("refuses to be created without an endpoint or with a bad maxTokens", () => {
    expect(ConfigurationError.isInstance(captureSync(() => createRelayModel({ endpoint: "" })))).toBe(true);
    expect(ConfigurationError.isInstance(captureSync(() => createRelayModel({ endpoint: "/x", maxTokens: 0 })))).toBe(
      true,
    );
    expect(createRelayModel({ endpoint: "/x", model: "m" }).name).toBe("relay:m");
  });
});

function captureSync(fn: () => unknown): unknown {
  try {
    fn();
  } catch (error) {
    return error;
  }
  return undefined;
}

describe("createRelayModel: reading the stream", () => {
  const bytes = new TextEncoder().encode(STREAM);

  it("replays the adapter events in order and resolves with the result, skipping unknown events and comments", async () => {
    const { fetch } = stubFetch(() => sse(STREAM));
    const { result, events } = await run(fetch);
    expect(events).toEqual(EXPECTED_EVENTS);
    expect(result).toEqual(RESULT);
  });

  it("parses the same events whatever the chunk boundaries (every two-way split, byte-sized chunks, CRLF)", async () => {
    const splits: Uint8Array[][] = [];
    for (let i = 1; i < bytes.length; i++) splits.push([bytes.slice(0, i), bytes.slice(i)]);
    splits.push(Array.from(bytes, (b) => Uint8Array.of(b)));
    const crlf = new TextEncoder().encode(STREAM.replace(/\n/g, "\r\n"));
    splits.push(Array.from({ length: Math.ceil(crlf.length / 3) }, (_, i) => crlf.slice(i * 3, i * 3 + 3)));
    for (const chunks of splits) {
      const { fetch } = stubFetch(() => sse(chunks));
      const { result, events } = await run(fetch);
      expect(events).toEqual(EXPECTED_EVENTS);
      expect(result).toEqual(RESULT);
    }
  });

  it("only replays adapter events, never runtime ones a relay might send", async () => {
    expect([...RELAY_FORWARDED_EVENTS]).toEqual([
      "text_delta",
      "tool_use",
      "model_response",
      "model_response_complete",
      "token_consumption",
      "model_refusal",
      "model_retry",
    ]);
    const stream =
      frame("tool_use_result", { tool_name: "x", result: { status: "success", data: 1 } }) + frame("result", RESULT);
    const { fetch } = stubFetch(() => sse(stream));
    const { events } = await run(fetch);
    expect(events).toEqual([]);
  });

  it("replays model_refusal and keeps the answer's reasoning blocks, refusal, provider and extras", async () => {
    const message = {
      sender: "agent",
      text: "I can't.",
      is_refusal: true,
      provider: "anthropic",
      provider_extras: { vendor: { a: [1, 2] } },
      reasoning_blocks: [{ type: "thinking", text: "t", signature: "s", provider: "anthropic" }],
      tool_calls: [{ tool_name: "f", input_args: {}, id: "c", provider_extras: { x: 1 } }],
    };
    const stream =
      frame("model_refusal", { text: "I can't." }) +
      frame("result", { messages: [message], tokens_in: 1, tokens_out: 2 });
    const { result, events } = await run(stubFetch(() => sse(stream)).fetch);
    expect(events).toEqual([{ type: "model_refusal", text: "I can't." }]);
    expect(result.messages).toEqual([message]);
  });

  it("replays the upstream adapter's model_retry, and refuses one of the wrong shape", async () => {
    const retry = { provider: "openai", attempt: 1, delay_ms: 0, status: 503, code: "server_error", reason: "busy" };
    const { events } = await run(stubFetch(() => sse(frame("model_retry", retry) + frame("result", RESULT))).fetch);
    expect(events).toEqual([{ type: "model_retry", ...retry }]);
    const bad = (await failure(
      run(stubFetch(() => sse(frame("model_retry", { ...retry, attempt: "1" }) + frame("result", RESULT))).fetch),
    )) as ProviderError;
    expect(bad.providerMessage).toContain('malformed "model_retry" event');
  });

  it("refuses an answer whose provider state has the wrong shape (it would break the next turn)", async () => {
    const bad = [
      { reasoning_blocks: [{ type: "thinking", signature: 7 }] },
      { reasoning_blocks: [{ type: "summary" }] },
      { reasoning_blocks: { type: "thinking" } },
      { is_refusal: "yes" },
      { provider: 1 },
      { provider_extras: ["x"] },
      { tool_calls: [{ tool_name: "f", provider_extras: "x" }] },
    ];
    for (const fields of bad) {
      const stream = frame("result", {
        messages: [{ sender: "agent", text: "", ...fields }],
        tokens_in: 1,
        tokens_out: 1,
      });
      const e = (await failure(run(stubFetch(() => sse(stream)).fetch))) as ProviderError;
      expect(ProviderError.isInstance(e), JSON.stringify(fields)).toBe(true);
      expect(e.providerMessage).toContain("malformed result");
    }
    const refusal = (await failure(
      run(stubFetch(() => sse(frame("model_refusal", { text: 3 }) + frame("result", RESULT))).fetch),
    )) as ProviderError;
    expect(refusal.providerMessage).toContain('malformed "model_refusal" event');
  });

  it("turns an error event into a ProviderError with the upstream status, code and message", async () => {
    const stream =
      frame("text_delta", { text: "partial" }) +
      frame("error", {
        code: "GLOVE_PROVIDER",
        message: "openai returned HTTP 500: overloaded",
        status: 500,
        retryable: true,
        providerCode: "server_error",
      });
    const { fetch } = stubFetch(() => sse(stream));
    const events: SubscriberEvent[] = [];
    const model = createRelayModel({ endpoint: "http://relay.test", fetch });
    const error = await failure(
      model.prompt(request(), async (type, data) => void events.push({ type, ...data } as SubscriberEvent)),
    );
    expect(ProviderError.isInstance(error)).toBe(true);
    const e = error as ProviderError;
    expect([e.provider, e.status, e.retryable, e.providerCode]).toEqual(["relay", 500, true, "server_error"]);
    expect(e.providerMessage).toBe("openai returned HTTP 500: overloaded");
    expect(events).toEqual([{ type: "text_delta", text: "partial" }]);
  });

  it("reports an error event without an upstream status as 502 with the relay's code", async () => {
    const { fetch } = stubFetch(() => sse(frame("error", { code: "GLOVE_INTERNAL", message: "failed; logged" })));
    const e = (await failure(run(fetch))) as ProviderError;
    expect([e.status, e.retryable, e.providerCode, e.providerMessage]).toEqual([
      502,
      false,
      "GLOVE_INTERNAL",
      "failed; logged",
    ]);
  });

  it("fails clearly on HTTP errors, with the relay's issues and retry-after", async () => {
    const { fetch } = stubFetch(
      () =>
        new Response(
          JSON.stringify({
            error: {
              code: "GLOVE_BAD_REQUEST",
              message: "invalid body",
              issues: [{ path: "messages.0.text", message: "Expected string" }],
            },
          }),
          { status: 400, headers: { "content-type": "application/json" } },
        ),
    );
    const e = (await failure(run(fetch))) as ProviderError;
    expect(ProviderError.isInstance(e)).toBe(true);
    expect([e.status, e.retryable, e.providerCode]).toEqual([400, false, "GLOVE_BAD_REQUEST"]);
    expect(e.providerMessage).toBe("invalid body (messages.0.text: Expected string)");

    const limited = stubFetch(
      () =>
        new Response(JSON.stringify({ error: { code: "GLOVE_RATE_LIMITED", message: "slow down" } }), {
          status: 429,
          headers: { "retry-after": "7" },
        }),
    );
    const r = (await failure(run(limited.fetch))) as ProviderError;
    expect([r.status, r.retryable, r.retryAfterMs, r.providerMessage]).toEqual([429, true, 7000, "slow down"]);
    expect(limited.calls).toHaveLength(1);
  });

  it("refuses a 200 that is not an event stream (a wrong endpoint URL)", async () => {
    const { fetch } = stubFetch(
      () => new Response("<html></html>", { status: 200, headers: { "content-type": "text/html" } }),
    );
    const e = (await failure(run(fetch))) as ProviderError;
    expect(ProviderError.isInstance(e)).toBe(true);
    expect(e.providerMessage).toContain("not an event stream");
  });

  it("fails when the stream ends without a result, is cut, or carries malformed data", async () => {
    const ended = (await failure(run(stubFetch(() => sse(frame("text_delta", { text: "a" }))).fetch))) as ProviderError;
    expect([ended.status, ended.retryable]).toEqual([0, true]);
    expect(ended.providerMessage).toContain("ended before its result");

    const cut = (await failure(
      run(
        stubFetch(
          () =>
            new Response(
              bodyOf([new TextEncoder().encode(frame("text_delta", { text: "a" }))], {
                error: new TypeError("terminated"),
              }),
              { headers: { "content-type": "text/event-stream" } },
            ),
        ).fetch,
      ),
    )) as ProviderError;
    expect([cut.status, cut.retryable]).toEqual([0, true]);
    expect(cut.providerMessage).toContain("lost mid-stream");

    for (const bad of [
      frame("result", { messages: "nope", tokens_in: 1, tokens_out: 1 }),
      "event: text_delta\ndata: {not json\n\n",
      frame("tool_use", { id: 1 }),
    ]) {
      const e = (await failure(run(stubFetch(() => sse(bad)).fetch))) as ProviderError;
      expect(ProviderError.isInstance(e)).toBe(true);
      expect(e.retryable).toBe(false);
      expect(e.providerMessage).toContain("malformed");
    }
  });

  it("turns a network failure into a retryable ProviderError with status 0", async () => {
    const fetchImpl = (async () => {
      throw new TypeError("fetch failed");
    }) as typeof fetch;
    const e = (await failure(run(fetchImpl))) as ProviderError;
    expect([e.status, e.retryable]).toEqual([0, true]);
  });

  it("lets a subscriber's error through as thrown", async () => {
    const { fetch } = stubFetch(() => sse(STREAM));
    const model = createRelayModel({ endpoint: "http://relay.test", fetch });
    const boom = new Error("subscriber failed");
    const error = await failure(
      model.prompt(request(), async () => {
        throw boom;
      }),
    );
    expect(error).toBe(boom);
  });
});

describe("createRelayModel: abort", () => {
  it("throws AbortError for an already aborted signal without calling fetch", async () => {
    const { fetch, calls } = stubFetch(() => sse(STREAM));
    const controller = new AbortController();
    controller.abort();
    expect(AbortError.isInstance(await failure(run(fetch, request(), controller.signal)))).toBe(true);
    expect(calls).toHaveLength(0);
  });

  it("throws AbortError when aborted mid-stream, having replayed only what arrived before", async () => {
    const controller = new AbortController();
    const fetchImpl = (async (_input: string | URL | Request, init?: RequestInit) => {
      const body = new ReadableStream<Uint8Array>({
        start(c) {
          c.enqueue(new TextEncoder().encode(frame("text_delta", { text: "first" })));
          // Like fetch, the body errors when the request's signal aborts.
          init?.signal?.addEventListener("abort", () => c.error(new DOMException("aborted", "AbortError")));
        },
      });
      return new Response(body, { headers: { "content-type": "text/event-stream" } });
    }) as typeof fetch;
    const model = createRelayModel({ endpoint: "http://relay.test", fetch: fetchImpl });
    const events: string[] = [];
    const error = await failure(
      model.prompt(
        request(),
        async (type) => {
          events.push(type);
          controller.abort();
        },
        controller.signal,
      ),
    );
    expect(AbortError.isInstance(error)).toBe(true);
    expect(events).toEqual(["text_delta"]);
  });
});
