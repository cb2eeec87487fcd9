import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { Displaymanager, Glove, MemoryStore, type Message } from "glove-core";
import { RecordingSubscriber } from "glove-core/testing";
import { createAdapter } from "glove-core/models/providers";
import { sse, startFakeServer, type FakeServer } from "./fake-server.js";

let server: FakeServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const chunk = (delta: Record<string, unknown>, finish: string | null = null) => ({
  choices: [{ index: 0, delta, finish_reason: finish }],
});

describe("Glove driven by the OpenAI-compatible adapter over HTTP", () => {
  it("runs a tool turn end to end: tool call → executor → tool message → final answer", async () => {
    server = await startFakeServer(
      sse(
        [
          chunk({ content: "Checking the weather." }),
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
          chunk({ content: "It is sunny " }),
          chunk({ content: "in Tokyo." }),
          chunk({}, "stop"),
          { choices: [], usage: { prompt_tokens: 80, completion_tokens: 6 } },
        ],
        { done: true },
      ),
    );
    const model = createAdapter({ provider: "ollama", model: "llama3", baseURL: `${server.url}/v1` });
    const events = new RecordingSubscriber();
    const store = new MemoryStore("e2e");
    const glove = new Glove({
      store,
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
          return {
            status: "success",
            data: { city: input.city, sky: "sunny" },
            renderData: { card: "private-ui-payload" },
          };
        },
      })
      .addSubscriber(events)
      .build();

    const result = await glove.processRequest("Weather in Tokyo?");
    const final = (result as { messages: Message[] }).messages.at(-1)!;
    expect(final.text).toBe("It is sunny in Tokyo.");

    // What the provider received.
    expect(server.received).toHaveLength(2);
    const [first, second] = server.received;
    expect(first!.body.messages).toEqual([
      { role: "system", content: "You are a weather bot." },
      { role: "user", content: "Weather in Tokyo?" },
    ]);
    expect(first!.body.tools.map((t: { function: { name: string } }) => t.function.name)).toContain("get_weather");
    expect(second!.body.messages.slice(1)).toEqual([
      { role: "user", content: "Weather in Tokyo?" },
      {
        role: "assistant",
        content: "Checking the weather.",
        tool_calls: [
          { id: "call_w", type: "function", function: { name: "get_weather", arguments: '{"city":"Tokyo"}' } },
        ],
      },
      { role: "tool", tool_call_id: "call_w", content: '{"status":"success","data":{"city":"Tokyo","sky":"sunny"}}' },
    ]);
    expect(second!.raw).not.toContain("private-ui-payload");

    // What subscribers saw.
    const types = events.events.map((e) => e.type);
    expect(types.filter((t) => t === "model_response_complete")).toHaveLength(2);
    expect(types).toContain("tool_use");
    expect(types).toContain("tool_use_result");
    expect(types).not.toContain("model_response");
    const history = await store.getMessages();
    expect(history.map((m) => m.sender)).toEqual(["user", "agent", "user", "agent"]);
    expect(history[2]!.tool_results![0]!.result.renderData).toEqual({ card: "private-ui-payload" });
    expect(await store.getTokenCount()).toBeGreaterThan(0);
  });
});
