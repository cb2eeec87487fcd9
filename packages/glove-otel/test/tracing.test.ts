import { SpanKind, SpanStatusCode } from "@opentelemetry/api";
import type { ReadableSpan } from "@opentelemetry/sdk-trace-base";
import { AbortError, MemoryStore, type Glove } from "glove-core";
import { ScriptedModel } from "glove-core/testing";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { traceGlove } from "../src/index.js";
import { hr, makeGlove, memoryTracing } from "./support/memory.js";

function weatherGlove(model: ScriptedModel, name?: string): Glove {
  return makeGlove({ model, name, store: new MemoryStore("weather-conv") })
    .fold({
      name: "get_weather",
      description: "Weather for a city.",
      inputSchema: z.object({ city: z.string() }),
      async do(input) {
        return { status: "success", data: { city: input.city, sky: "sunny" } };
      },
    })
    .build();
}

const weatherScript = () =>
  new ScriptedModel([
    {
      text: "Let me look.",
      toolCalls: [{ name: "get_weather", input: { city: "Tokyo" } }],
      tokens_in: 120,
      tokens_out: 15,
    },
    { text: "It is sunny in Tokyo.", tokens_in: 160, tokens_out: 8 },
  ]);

const CONTENT_KEYS = [
  "gen_ai.input.messages",
  "gen_ai.output.messages",
  "gen_ai.tool.call.arguments",
  "gen_ai.tool.call.result",
];

describe("glove-otel span tree", () => {
  it("traces a tool loop: invoke_agent > chat, execute_tool, chat with GenAI attributes", async () => {
    const t = memoryTracing();
    const agent = traceGlove(weatherGlove(weatherScript()), { tracer: t.tracer });
    await agent.processRequest("What is the weather in Tokyo?");

    expect(t.tree()).toBe(
      ["invoke_agent main", "  chat scripted", "  execute_tool get_weather", "  chat scripted"].join("\n"),
    );
    expect(t.open.size).toBe(0);

    const root = t.named("invoke_agent main");
    expect(root.kind).toBe(SpanKind.INTERNAL);
    expect(root.attributes).toMatchObject({
      "gen_ai.operation.name": "invoke_agent",
      "gen_ai.agent.name": "main",
      "gen_ai.request.model": "scripted",
      "gen_ai.conversation.id": "weather-conv",
      "gen_ai.usage.input_tokens": 280,
      "gen_ai.usage.output_tokens": 23,
    });
    expect(root.status.code).toBe(SpanStatusCode.UNSET);

    const chats = t
      .spans()
      .filter((s) => s.name === "chat scripted")
      .sort((a, b) => hr(a.startTime) - hr(b.startTime));
    expect(chats.map((c) => c.kind)).toEqual([SpanKind.CLIENT, SpanKind.CLIENT]);
    expect(chats[0]!.attributes).toMatchObject({
      "gen_ai.operation.name": "chat",
      "gen_ai.request.model": "scripted",
      "gen_ai.usage.input_tokens": 120,
      "gen_ai.usage.output_tokens": 15,
      "gen_ai.response.finish_reasons": ["tool_use"],
    });
    expect(chats[1]!.attributes).toMatchObject({
      "gen_ai.usage.input_tokens": 160,
      "gen_ai.usage.output_tokens": 8,
      "gen_ai.response.finish_reasons": ["end_turn"],
    });

    const tool = t.named("execute_tool get_weather");
    expect(tool.attributes).toMatchObject({
      "gen_ai.operation.name": "execute_tool",
      "gen_ai.tool.name": "get_weather",
      "gen_ai.tool.call.id": "scripted_0_0",
      "gen_ai.tool.type": "function",
      "glove.tool.status": "success",
      "glove.tool.source": "local",
    });
    expect(tool.status.code).toBe(SpanStatusCode.UNSET);
    // Time order: first model call, then the tool, then the second model call.
    expect(hr(tool.startTime)).toBeGreaterThanOrEqual(hr(chats[0]!.endTime));
    expect(hr(chats[1]!.startTime)).toBeGreaterThanOrEqual(hr(tool.endTime));
    // Every span is in the request's trace.
    expect(new Set(t.spans().map((s) => s.spanContext().traceId)).size).toBe(1);
  });

  it("uses agentName, and a non-streaming model (model_response) ends chat spans too", async () => {
    const t = memoryTracing();
    const model = new ScriptedModel([{ text: "Hi." }], { stream: false, name: "claude-test" });
    const agent = traceGlove(makeGlove({ model }).build(), { tracer: t.tracer, agentName: "greeter" });
    await agent.processRequest("hello");
    expect(t.tree()).toBe("invoke_agent greeter\n  chat claude-test");
    expect(t.named("chat claude-test").attributes["gen_ai.request.model"]).toBe("claude-test");
    expect(t.named("invoke_agent greeter").attributes["gen_ai.agent.name"]).toBe("greeter");
  });

  it("an error result ends the tool span with error status; the request still succeeds", async () => {
    const t = memoryTracing();
    const model = new ScriptedModel([
      {
        toolCalls: [
          { name: "flaky", input: {} },
          { name: "nope", input: {} },
        ],
      },
      { text: "Sorry." },
    ]);
    const agent = traceGlove(
      makeGlove({ model })
        .fold({
          name: "flaky",
          description: "Fails.",
          async do() {
            throw new Error("disk on fire");
          },
        })
        .build(),
      { tracer: t.tracer },
    );
    await agent.processRequest("go");
    const flaky = t.named("execute_tool flaky");
    expect(flaky.status).toMatchObject({ code: SpanStatusCode.ERROR });
    expect(flaky.attributes).toMatchObject({ "error.type": "tool_error", "glove.tool.status": "error" });
    // An unknown tool gets an error result, so an error span too.
    expect(t.named("execute_tool nope").status.code).toBe(SpanStatusCode.ERROR);
    expect(t.named("invoke_agent main").status.code).toBe(SpanStatusCode.UNSET);
    expect(t.open.size).toBe(0);
  });
});

describe("glove-otel content capture", () => {
  const allAttributeText = (spans: ReadableSpan[]) =>
    JSON.stringify(spans.map((s) => [s.attributes, s.events.map((e) => e.attributes)]));

  it("is off by default: no prompt, answer, tool input or output in any span", async () => {
    const t = memoryTracing();
    const agent = traceGlove(weatherGlove(weatherScript()), { tracer: t.tracer });
    await agent.processRequest("What is the weather in Tokyo?");
    const text = allAttributeText(t.spans());
    for (const key of CONTENT_KEYS) expect(text).not.toContain(key);
    for (const secret of ["weather in Tokyo", "Let me look", "sunny", '"city"']) expect(text).not.toContain(secret);
  });

  it("records messages, tool arguments and results when asked", async () => {
    const t = memoryTracing();
    const agent = traceGlove(weatherGlove(weatherScript()), { tracer: t.tracer, captureContent: true });
    await agent.processRequest("What is the weather in Tokyo?");

    const root = t.named("invoke_agent main");
    expect(JSON.parse(root.attributes["gen_ai.input.messages"] as string)).toEqual([
      { role: "user", parts: [{ type: "text", content: "What is the weather in Tokyo?" }] },
    ]);
    expect(JSON.parse(root.attributes["gen_ai.output.messages"] as string)).toEqual([
      { role: "assistant", parts: [{ type: "text", content: "It is sunny in Tokyo." }] },
    ]);
    const first = t
      .spans()
      .find(
        (s) => s.name === "chat scripted" && s.attributes["gen_ai.response.finish_reasons"]?.toString() === "tool_use",
      )!;
    expect(JSON.parse(first.attributes["gen_ai.output.messages"] as string)).toEqual([
      {
        role: "assistant",
        finish_reason: "tool_use",
        parts: [
          { type: "text", content: "Let me look." },
          { type: "tool_call", id: "scripted_0_0", name: "get_weather", arguments: { city: "Tokyo" } },
        ],
      },
    ]);
    const tool = t.named("execute_tool get_weather");
    expect(JSON.parse(tool.attributes["gen_ai.tool.call.arguments"] as string)).toEqual({ city: "Tokyo" });
    expect(JSON.parse(tool.attributes["gen_ai.tool.call.result"] as string)).toEqual({ city: "Tokyo", sky: "sunny" });
  });
});

describe("glove-otel abort and errors", () => {
  function slowGlove(model: ScriptedModel): Glove {
    return makeGlove({ model })
      .fold({
        name: "slow_job",
        description: "Takes a while.",
        async do(_input, _display, _glove, signal) {
          await new Promise((resolve, reject) => {
            const timer = setTimeout(resolve, 10_000);
            signal?.addEventListener("abort", () => {
              clearTimeout(timer);
              reject(signal.reason);
            });
          });
          return "finished";
        },
      })
      .build();
  }

  it("abort mid-tool ends every span, the tool and the request with error status", async () => {
    const t = memoryTracing();
    const agent = traceGlove(
      slowGlove(new ScriptedModel([{ toolCalls: [{ name: "slow_job", input: {} }] }, { text: "Back." }])),
      { tracer: t.tracer },
    );
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 30);
    await expect(agent.processRequest("Run the job", controller.signal)).rejects.toSatisfy((e) =>
      AbortError.isInstance(e),
    );

    expect(t.open.size).toBe(0);
    expect(t.tree()).toBe("invoke_agent main\n  chat scripted\n  execute_tool slow_job");
    const tool = t.named("execute_tool slow_job");
    expect(tool.status.code).toBe(SpanStatusCode.ERROR);
    expect(tool.attributes).toMatchObject({ "glove.tool.status": "aborted", "error.type": "AbortError" });
    const root = t.named("invoke_agent main");
    expect(root.status.code).toBe(SpanStatusCode.ERROR);
    expect(root.attributes["error.type"]).toBe("AbortError");

    // The Glove carries on, traced as a new request in a new trace.
    await agent.processRequest("Are you there?");
    const roots = t.spans().filter((s) => s.name === "invoke_agent main");
    expect(roots).toHaveLength(2);
    expect(roots[1]!.status.code).toBe(SpanStatusCode.UNSET);
    expect(roots[0]!.spanContext().traceId).not.toBe(roots[1]!.spanContext().traceId);
    expect(t.open.size).toBe(0);
  });

  it("abort while the model streams ends the open chat span with error status", async () => {
    const t = memoryTracing();
    const model = new ScriptedModel([{ text: "one two three four five six seven eight nine ten" }], { delayMs: 15 });
    const agent = traceGlove(makeGlove({ model }).build(), { tracer: t.tracer });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);
    await expect(agent.processRequest("count", controller.signal)).rejects.toSatisfy((e) => AbortError.isInstance(e));
    expect(t.open.size).toBe(0);
    const chat = t.named("chat scripted");
    expect(chat.status.code).toBe(SpanStatusCode.ERROR);
    expect(chat.attributes["error.type"]).toBe("AbortError");
    expect(t.named("invoke_agent main").status.code).toBe(SpanStatusCode.ERROR);
  });

  it("a model error ends the request span with its error type", async () => {
    const t = memoryTracing();
    class ProviderDown extends Error {
      override name = "ProviderDown";
    }
    const agent = traceGlove(makeGlove({ model: new ScriptedModel([{ error: new ProviderDown("503") }]) }).build(), {
      tracer: t.tracer,
    });
    await expect(agent.processRequest("hi")).rejects.toThrow("503");
    expect(t.open.size).toBe(0);
    const root = t.named("invoke_agent main");
    expect(root.status).toMatchObject({ code: SpanStatusCode.ERROR, message: "503" });
    expect(root.attributes["error.type"]).toBe("ProviderDown");
    expect(root.events.some((e) => e.name === "exception")).toBe(false);
  });

  it("a request aborted while queued gets a short error span of its own", async () => {
    const t = memoryTracing();
    const model = new ScriptedModel([{ text: "slow answer here" }, { text: "second" }], { delayMs: 10 });
    const agent = traceGlove(makeGlove({ model }).build(), { tracer: t.tracer });
    const controller = new AbortController();
    const first = agent.processRequest("first");
    const second = agent.processRequest("second", controller.signal);
    controller.abort();
    await first;
    await expect(second).rejects.toSatisfy((e) => AbortError.isInstance(e));
    const roots = t.spans().filter((s) => s.name === "invoke_agent main");
    expect(roots.map((r) => r.status.code).sort()).toEqual([SpanStatusCode.UNSET, SpanStatusCode.ERROR].sort());
    expect(t.open.size).toBe(0);
  });
});
