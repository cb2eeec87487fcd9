import { afterEach, describe, expect, expectTypeOf, it } from "vitest";
import { z } from "zod";
import { Displaymanager, Glove, MemoryStore, StructuredOutputError, type SubscriberEvent } from "glove-core";
import { OpenAICompatAdapter } from "glove-core/models/openai-compat";
import { sse, startFakeServer, type FakeServer } from "../models/fake-server.js";
import { expectValidHistory } from "../support/make-glove.js";

let server: FakeServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const chunk = (delta: Record<string, unknown>, finish: string | null = null) => ({
  choices: [{ index: 0, delta, finish_reason: finish }],
});
const usage = { choices: [], usage: { prompt_tokens: 10, completion_tokens: 5 } };
/** A streamed plain answer, split in two deltas as providers do. */
const answer = (text: string) =>
  sse([chunk({ content: text.slice(0, 5) }), chunk({ content: text.slice(5) }), chunk({}, "stop"), usage], {
    done: true,
  });

const Forecast = z.object({ city: z.string(), days: z.array(z.object({ day: z.string(), high: z.number() })) });
const forecast = { city: "Oslo", days: [{ day: "Mon", high: 4 }] };

function glove(model: OpenAICompatAdapter, store = new MemoryStore("e2e")) {
  return new Glove({
    store,
    model,
    displayManager: new Displaymanager(),
    systemPrompt: "You forecast.",
    compaction_config: { compaction_instructions: "Summarize." },
  })
    .fold({
      name: "get_forecast",
      description: "Forecast for a city.",
      inputSchema: z.object({ city: z.string() }),
      do: async (input) => ({ city: input.city, mon: 4 }),
    })
    .build();
}

describe("structured output through the OpenAI-compatible adapter over HTTP", () => {
  it("sends response_format json_schema on every call of the request, repairs once, and parses the answer", async () => {
    server = await startFakeServer(
      sse(
        [
          chunk({
            tool_calls: [
              {
                index: 0,
                id: "call_1",
                type: "function",
                function: { name: "get_forecast", arguments: '{"city":"Oslo"}' },
              },
            ],
          }),
          chunk({}, "tool_calls"),
          usage,
        ],
        { done: true },
      ),
      answer('{"city":"Oslo","days":[{"day":"Mon","high":"four"}]}'),
      answer(JSON.stringify(forecast)),
    );
    const model = new OpenAICompatAdapter({ baseURL: server.url, model: "gpt-test", apiKey: "k" });
    expect(model.supportsStructuredOutput).toBe(true);
    const store = new MemoryStore("native");
    const agent = glove(model, store);
    const stream = agent.stream("Forecast for Oslo", { output: Forecast, outputName: "forecast" });
    const events: SubscriberEvent[] = [];
    for await (const event of stream) events.push(event);
    const result = await stream.result;
    expectTypeOf(result.output.days).toEqualTypeOf<Array<{ day: string; high: number }>>();
    expect(result.output).toEqual(forecast);
    expect(result.attempts).toBe(2);
    expect(events.filter((e) => e.type === "tool_use_result")).toHaveLength(1);

    expect(server.received).toHaveLength(3);
    for (const received of server.received) {
      expect(received.body.response_format).toEqual({
        type: "json_schema",
        json_schema: {
          name: "forecast",
          schema: expect.objectContaining({ type: "object", required: ["city", "days"] }),
          strict: true,
        },
      });
      // Native mode: no schema text in the system prompt.
      expect(received.body.messages[0].content).not.toContain("JSON Schema");
    }
    const repair = server.received[2]!.body.messages.at(-1);
    expect(repair.role).toBe("user");
    expect(repair.content).toContain("days.0.high");
    await expectValidHistory(store);

    // The next plain request goes out without response_format.
    server.handlers.push(answer("You're welcome."));
    await agent.processRequest("thanks");
    expect(server.received[3]!.body).not.toHaveProperty("response_format");
  });

  it("without native mode the schema travels in the system prompt for that request only", async () => {
    server = await startFakeServer(answer("```json\n" + JSON.stringify(forecast) + "\n```"), answer("bye"));
    const model = new OpenAICompatAdapter({ baseURL: server.url, model: "local", nativeStructuredOutput: false });
    expect(model.supportsStructuredOutput).toBe(false);
    const agent = glove(model);
    const { output } = await agent.processRequest("Forecast for Oslo", { output: Forecast });
    expect(output).toEqual(forecast);
    const [first] = server.received;
    expect(first!.body).not.toHaveProperty("response_format");
    expect(first!.body.messages[0].content).toContain('JSON Schema named "response"');
    expect(first!.body.messages[0].content).toContain('"days"');
    await agent.processRequest("bye");
    expect(server.received[1]!.body.messages[0].content).toBe("You forecast.");
  });

  it("a provider that keeps answering off-schema ends in StructuredOutputError; the session goes on", async () => {
    server = await startFakeServer(answer("no idea, sorry"), answer('{"city":"Oslo"}'), answer("ok"));
    const store = new MemoryStore("fail");
    const agent = glove(new OpenAICompatAdapter({ baseURL: server.url, model: "gpt-test" }), store);
    const error = await agent.processRequest("Forecast", { output: Forecast }).catch((e: unknown) => e);
    expect(StructuredOutputError.isInstance(error)).toBe(true);
    expect((error as StructuredOutputError).rawText).toBe('{"city":"Oslo"}');
    expect((error as StructuredOutputError).issues[0]!.path).toEqual(["days"]);
    await agent.processRequest("never mind");
    // The provider saw a well-formed history: alternating turns ending with the new question.
    const roles = server.received[2]!.body.messages.map((m: { role: string }) => m.role);
    expect(roles).toEqual(["system", "user", "assistant", "user", "assistant", "user"]);
    await expectValidHistory(store);
  });
});
