import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { Displaymanager, Glove, MemoryStore, ProviderError, type Message } from "glove-core";
import { RecordingSubscriber } from "glove-core/testing";
import { createRelayModel } from "glove-core/models/relay";
import { startRelay, TOKEN, type RunningRelay } from "./support/harness.js";

let running: RunningRelay | undefined;
afterEach(async () => {
  await running?.close();
  running = undefined;
});

function browserGlove(endpoint: string, options: { token?: string; model?: string; maxTokens?: number } = {}) {
  const events = new RecordingSubscriber();
  const store = new MemoryStore("browser-tab");
  const ran: unknown[] = [];
  const glove = new Glove({
    store,
    model: createRelayModel({
      endpoint,
      headers: () => ({ authorization: options.token ?? TOKEN }),
      ...(options.model ? { model: options.model } : {}),
      ...(options.maxTokens ? { maxTokens: options.maxTokens } : {}),
    }),
    displayManager: new Displaymanager(),
    systemPrompt: "You are a weather bot.",
    compaction_config: { compaction_instructions: "Summarize." },
  })
    .fold({
      name: "get_weather",
      description: "Weather for a city.",
      inputSchema: z.object({ city: z.string() }),
      async do(input) {
        ran.push(input);
        return { status: "success", data: { city: input.city, sky: "sunny" }, renderData: { card: "ui-only-payload" } };
      },
    })
    .addSubscriber(events)
    .build();
  return { glove, events, store, ran };
}

describe("a browser-side Glove through the relay", () => {
  it("runs a tool loop: the model's tool call runs locally, its result goes back through the relay", async () => {
    running = await startRelay([
      { text: "Checking the weather.", toolCalls: [{ name: "get_weather", input: { city: "Tokyo" }, id: "call_w" }] },
      (request) => {
        const last = request.messages.at(-1)!;
        const data = last.tool_results?.[0]?.result.data as { sky: string };
        return { text: `It is ${data.sky} in Tokyo.` };
      },
    ]);
    const { glove, events, store, ran } = browserGlove(running.url, { model: "big-model", maxTokens: 100_000 });
    const result = await glove.processRequest("Weather in Tokyo?");
    expect((result as { messages: Message[] }).messages.at(-1)!.text).toBe("It is sunny in Tokyo.");
    expect(ran).toEqual([{ city: "Tokyo" }]);

    // The Glove's history: user, agent tool call, tool result, final answer.
    const history = await store.getMessages();
    expect(history.map((m) => [m.sender, m.text, m.tool_calls?.[0]?.id, m.tool_results?.[0]?.call_id])).toEqual([
      ["user", "Weather in Tokyo?", undefined, undefined],
      ["agent", "Checking the weather.", "call_w", undefined],
      ["user", expect.any(String), undefined, "call_w"],
      ["agent", "It is sunny in Tokyo.", undefined, undefined],
    ]);
    expect(history[2]!.tool_results![0]!.result.renderData).toEqual({ card: "ui-only-payload" });

    // The upstream saw the system prompt, the tool as JSON Schema, the model and the capped max tokens, never renderData.
    expect(running.built.map((b) => [b.model, b.maxTokens])).toEqual([
      ["big-model", 4096],
      ["big-model", 4096],
    ]);
    const [first, second] = running.built.map((b) => b.adapter.requests[0]!);
    expect(first!.systemPrompt).toContain("You are a weather bot.");
    const weather = first!.tools!.find((t) => t.name === "get_weather")!;
    expect(weather.jsonSchema).toEqual({
      type: "object",
      properties: { city: { type: "string" } },
      required: ["city"],
    });
    expect(JSON.stringify(second!.messages)).not.toContain("ui-only-payload");
    expect(second!.messages.at(-1)!.tool_results![0]).toEqual({
      tool_name: "get_weather",
      call_id: "call_w",
      result: { status: "success", data: { city: "Tokyo", sky: "sunny" } },
    });

    // Streamed events arrived in order: deltas, tool_use, completion, then the tool ran, then the second turn.
    const types = events.types().filter((t) => t !== "token_consumption");
    const firstComplete = types.indexOf("model_response_complete");
    expect(types.slice(0, firstComplete + 1)).toEqual([
      "text_delta",
      "text_delta",
      "text_delta",
      "tool_use",
      "model_response_complete",
    ]);
    expect(types.indexOf("tool_use_result")).toBeGreaterThan(firstComplete);
    expect(types.lastIndexOf("model_response_complete")).toBeGreaterThan(types.indexOf("tool_use_result"));
    const deltas = events
      .ofType("text_delta")
      .map((e) => e.text)
      .join("");
    expect(deltas).toBe("Checking the weather.It is sunny in Tokyo.");
    expect(events.ofType("tool_use")).toEqual([
      { type: "tool_use", id: "call_w", name: "get_weather", input: { city: "Tokyo" } },
    ]);
  });

  it("rejects with a ProviderError when the upstream fails mid-stream, keeping what streamed before", async () => {
    running = await startRelay(() => ({
      name: "failing",
      setSystemPrompt() {},
      async prompt(_request, notify) {
        await notify("text_delta", { text: "Let me " });
        throw new ProviderError({
          provider: "anthropic",
          status: 529,
          retryable: true,
          providerMessage: "overloaded_error",
        });
      },
    }));
    const { glove, events } = browserGlove(running.url);
    const error = await glove.processRequest("hi").catch((e: unknown) => e);
    expect(ProviderError.isInstance(error)).toBe(true);
    const e = error as ProviderError;
    expect([e.provider, e.status, e.retryable]).toEqual(["relay", 529, true]);
    expect(e.providerMessage).toContain("returned HTTP 529; try again later");
    expect(events.ofType("text_delta").map((d) => d.text)).toEqual(["Let me "]);
  });

  it("surfaces the relay's refusals as ProviderErrors with their status (401, 403)", async () => {
    running = await startRelay([]);
    const unauthorized = await browserGlove(running.url, { token: "Bearer nope" })
      .glove.processRequest("hi")
      .catch((e: unknown) => e);
    expect(ProviderError.isInstance(unauthorized)).toBe(true);
    expect((unauthorized as ProviderError).status).toBe(401);
    expect((unauthorized as ProviderError).providerCode).toBe("GLOVE_UNAUTHORIZED");

    const forbidden = await browserGlove(running.url, { model: "gpt-5" })
      .glove.processRequest("hi")
      .catch((e: unknown) => e);
    expect((forbidden as ProviderError).status).toBe(403);
    expect((forbidden as ProviderError).providerMessage).toContain("not allowed");
  });
});
