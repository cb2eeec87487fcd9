import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { Displaymanager, Glove, MemoryStore, type ModelCallEvent, type ModelAdapter } from "glove-core";
import { AnthropicAdapter } from "glove-core/models/anthropic";
import { OpenAICompatAdapter } from "glove-core/models/openai-compat";
import { json, sse, startFakeServer, type FakeServer } from "./fake-server.js";

// A request inspector's source (decision 0055): every model call's request as Glove built it, the
// wire request as the adapter sent it (secrets redacted) and the answer with its timing, told to
// model call observers and never to subscribers.

let server: FakeServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const OPENAI_KEY = "sk-live-0123456789abcdefSECRET";
const ANTHROPIC_KEY = "sk-ant-api03-SECRETSECRETSECRET";

const chunk = (delta: Record<string, unknown>, finish: string | null = null) => ({
  choices: [{ index: 0, delta, finish_reason: finish }],
});

function weatherGlove(model: ModelAdapter, observed: ModelCallEvent[], subscriberEvents: string[]) {
  const glove = new Glove({
    store: new MemoryStore("inspect"),
    model,
    displayManager: new Displaymanager(),
    systemPrompt: "You are a weather bot.",
    compaction_config: { compaction_instructions: "Summarize." },
  })
    .fold({
      name: "get_weather",
      description: "Weather for a city.",
      inputSchema: z.object({ city: z.string() }),
      async do(input) {
        return { status: "success", data: { city: input.city, sky: "sunny" } };
      },
    })
    .addSubscriber({ record: (type, data) => void subscriberEvents.push(`${type} ${JSON.stringify(data)}`) })
    .build();
  glove.observeModelCalls((event) => observed.push(event));
  return glove;
}

describe("model call observers", () => {
  it("see each call's request, wire body, retries, first token and answer — and never the API key (OpenAI wire)", async () => {
    server = await startFakeServer(
      json(429, { error: { message: "slow down", type: "rate_limit_exceeded" } }, { "retry-after-ms": "30" }),
      sse(
        [
          chunk({ content: "Checking." }),
          chunk({
            tool_calls: [
              { index: 0, id: "call_w", type: "function", function: { name: "get_weather", arguments: '{"city"' } },
            ],
          }),
          chunk({ tool_calls: [{ index: 0, function: { arguments: ':"Tokyo"}' } }] }),
          chunk({}, "tool_calls"),
          { choices: [], usage: { prompt_tokens: 50, completion_tokens: 10 } },
        ],
        { done: true },
      ),
      sse(
        [
          chunk({ content: "Sunny." }),
          chunk({}, "stop"),
          { choices: [], usage: { prompt_tokens: 80, completion_tokens: 2 } },
        ],
        {
          done: true,
        },
      ),
    );
    const model = new OpenAICompatAdapter({ model: "gpt-4o-mini", baseURL: `${server.url}/v1`, apiKey: OPENAI_KEY });
    const observed: ModelCallEvent[] = [];
    const subscriberEvents: string[] = [];
    await weatherGlove(model, observed, subscriberEvents).processRequest("Weather in Tokyo?");

    // The key went to the provider…
    expect(server.received[0]!.headers.authorization).toBe(`Bearer ${OPENAI_KEY}`);
    // …and nowhere in what an observer saw.
    expect(JSON.stringify(observed)).not.toContain(OPENAI_KEY);
    expect(JSON.stringify(observed)).not.toContain("0123456789abcdef");

    expect(observed.map((e) => e.phase)).toEqual(["request", "wire", "answer", "request", "wire", "answer"]);
    const [request, wire, answer, request2, wire2, answer2] = observed;
    if (request?.phase !== "request" || wire?.phase !== "wire" || answer?.phase !== "answer") throw new Error("order");
    expect(request.systemPrompt).toContain("You are a weather bot.");
    expect(request.toolNames).toContain("get_weather");
    expect(request.messages.map((m) => m.text)).toEqual(["Weather in Tokyo?"]);
    expect(wire.wire.body).toBe(server.received[1]!.raw);
    expect(wire.wire.headers.authorization).toBe("[redacted]");
    expect(wire.wire.url).toBe(`${server.url}/v1/chat/completions`);
    expect(wire.callId).toBe(request.callId);

    // The 429 and its wait, then the attempt that answered.
    expect(answer.attempts.map((a) => [a.attempt, a.outcome, a.status])).toEqual([
      [0, "retried", 429],
      [1, "ok", undefined],
    ]);
    expect(answer.attempts[0]!.cause).toContain("slow down");
    expect(answer.attempts[0]!.delayMs).toBe(30);
    expect(answer.attempts[1]!.startMs).toBeGreaterThanOrEqual(answer.attempts[0]!.endMs);
    expect(answer.firstTokenAt).toBeGreaterThanOrEqual(answer.attempts[1]!.startMs);
    expect(answer.firstTokenAt).toBeLessThanOrEqual(answer.endedAt);
    expect(answer.toolCalls?.[0]).toMatchObject({ tool_name: "get_weather", input_args: { city: "Tokyo" } });
    expect(answer.finishReason).toBe("tool_calls");
    expect(answer.usage).toEqual({ tokens_in: 50, tokens_out: 10 });

    if (request2?.phase !== "request" || wire2?.phase !== "wire" || answer2?.phase !== "answer")
      throw new Error("order");
    expect(request2.messages).toHaveLength(3);
    expect(JSON.parse(wire2.wire.body).messages).toHaveLength(4);
    expect(answer2.attempts.map((a) => a.outcome)).toEqual(["ok"]);
    expect(answer2.finishReason).toBe("stop");

    // Subscribers (a client's stream) never carry a request.
    expect(subscriberEvents.join("\n")).not.toContain("You are a weather bot.");
  });

  it("redact an Anthropic key wherever the adapter put it, and say when a call failed", async () => {
    server = await startFakeServer(
      json(400, { type: "error", error: { type: "invalid_request_error", message: "bad" } }),
    );
    const model = new AnthropicAdapter({
      model: "claude-sonnet-4-5",
      baseURL: server.url,
      apiKey: ANTHROPIC_KEY,
      // An app that echoes its key into the request (a misconfigured header) is still never shown it.
      headers: { "x-echo": `key=${ANTHROPIC_KEY}` },
    });
    const observed: ModelCallEvent[] = [];
    await expect(weatherGlove(model, observed, []).processRequest("Hi")).rejects.toThrow();
    expect(server.received[0]!.headers["x-api-key"]).toBe(ANTHROPIC_KEY);
    expect(JSON.stringify(observed)).not.toContain(ANTHROPIC_KEY);
    const answer = observed.find((e) => e.phase === "answer");
    expect(answer?.phase === "answer" && answer.error).toContain("bad");
    expect(answer?.phase === "answer" && answer.attempts.map((a) => a.outcome)).toEqual(["failed"]);
  });

  it("cost nothing without an observer: the adapter gets no reportWire and the same body", async () => {
    const seen: unknown[] = [];
    const model: ModelAdapter = {
      name: "fake",
      setSystemPrompt: () => undefined,
      async prompt(request) {
        seen.push(request.reportWire);
        return { messages: [{ sender: "agent", text: "ok" }], tokens_in: 1, tokens_out: 1 };
      },
    };
    const glove = new Glove({
      store: new MemoryStore("quiet"),
      model,
      displayManager: new Displaymanager(),
      systemPrompt: "s",
      compaction_config: { compaction_instructions: "Summarize." },
    }).build();
    await glove.processRequest("a");
    const observed: ModelCallEvent[] = [];
    const stop = glove.observeModelCalls((event) => observed.push(event));
    await glove.processRequest("b");
    stop();
    await glove.processRequest("c");
    expect(seen.map((s) => typeof s)).toEqual(["undefined", "function", "undefined"]);
    // A third-party adapter reports no wire: the request and answer are still observed.
    expect(observed.map((e) => e.phase)).toEqual(["request", "answer"]);
  });

  it("see a subagent's calls under its name", async () => {
    const calls: string[] = [];
    const answers = ["child says hi", "parent done"];
    const model = (label: string): ModelAdapter => ({
      name: label,
      setSystemPrompt: () => undefined,
      async prompt(request) {
        calls.push(label);
        if (label === "parent" && request.messages.length === 1)
          return {
            messages: [
              {
                sender: "agent",
                text: "",
                tool_calls: [
                  { id: "d1", tool_name: "glove_invoke_subagent", input_args: { name: "helper", prompt: "hi" } },
                ],
              },
            ],
            tokens_in: 1,
            tokens_out: 1,
          };
        return { messages: [{ sender: "agent", text: answers.shift()! }], tokens_in: 1, tokens_out: 1 };
      },
    });
    const glove = new Glove({
      store: new MemoryStore("parent"),
      model: model("parent"),
      displayManager: new Displaymanager(),
      systemPrompt: "parent",
      compaction_config: { compaction_instructions: "Summarize." },
    })
      .defineSubAgent({
        name: "helper",
        description: "helps",
        factory: () =>
          new Glove({
            store: new MemoryStore("child"),
            model: model("child"),
            displayManager: new Displaymanager(),
            systemPrompt: "child",
            compaction_config: { compaction_instructions: "Summarize." },
          }).build(),
      })
      .build();
    const observed: ModelCallEvent[] = [];
    glove.observeModelCalls((event) => observed.push(event));
    await glove.processRequest("go");
    const requests = observed.filter((e) => e.phase === "request");
    expect(requests.map((r) => [r.adapter, r.agentPath?.join("/") ?? ""])).toEqual([
      ["parent", ""],
      ["child", "helper"],
      ["parent", ""],
    ]);
  });
});
