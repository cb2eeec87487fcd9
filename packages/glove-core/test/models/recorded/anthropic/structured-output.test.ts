/** Structured output on recorded Anthropic answers: native `output_config`, and the forced-tool fallback. */
import { describe, expect, it } from "vitest";
import { ConfigurationError, type Message } from "glove-core";
import { replayServers } from "../support/index.js";
import { adapter, events, recorded } from "./harness.js";

const startServer = replayServers();

const messages: Message[] = [{ sender: "user", text: "Weather in four cities, please." }];
const schema = {
  type: "object",
  properties: { elements: { type: "array" } },
  required: ["elements"],
  additionalProperties: false,
};

describe("Anthropic structured output", () => {
  it("native: sends output_config.format with the schema; the JSON text answer comes back as the message text", async () => {
    const server = await startServer([{ response: recorded("structured-native") }]);
    const model = adapter({ baseURL: server.url, stream: false });
    expect(model.supportsStructuredOutput).toBe(true);
    const result = await model.prompt({ messages, output: { name: "recipe", schema } }, events().notify);
    expect(server.script.body(0)["output_config"]).toEqual({ format: { type: "json_schema", schema } });
    expect(server.script.body(0)["tool_choice"]).toBeUndefined();
    expect((JSON.parse(result.messages[0]!.text) as { recipe: { name: string } }).recipe.name).toBe("Classic Lasagna");
  });

  it("tool mode: offers and forces the answer tool; its call becomes the answer text, not a tool call", async () => {
    const server = await startServer([{ response: recorded("structured-forced-tool") }]);
    const model = adapter({
      baseURL: server.url,
      stream: false,
      structuredOutput: "tool",
      thinking: { type: "disabled" },
    });
    const seen = events();
    const result = await model.prompt(
      { messages, output: { name: "json", schema, description: "The answer." } },
      seen.notify,
    );
    const body = server.script.body(0);
    expect(body["tool_choice"]).toEqual({ type: "tool", name: "json" });
    expect(body["tools"]).toEqual([{ name: "json", description: "The answer.", input_schema: schema }]);
    expect(body["output_config"]).toBeUndefined();
    const reply = result.messages[0]!;
    expect(reply.tool_calls).toBeUndefined();
    expect(
      (JSON.parse(reply.text) as { elements: Array<{ location: string }> }).elements.map((e) => e.location),
    ).toEqual(["San Francisco", "London", "Paris", "Berlin"]);
    expect(seen.list.map((e) => e.type)).toEqual(["model_response"]);
  });

  it("tool mode with manual thinking is refused at construction, with what to do instead; adaptive thinking is fine", () => {
    expect(() => adapter({ structuredOutput: "tool" })).toThrow(ConfigurationError);
    expect(() => adapter({ structuredOutput: "tool" })).toThrow(/structuredOutput "native"/);
    expect(() => adapter({ structuredOutput: "tool", thinking: { type: "adaptive" } })).not.toThrow();
  });

  it("a thinking budget the API would refuse fails at construction", () => {
    expect(() => adapter({ thinking: { type: "enabled", budget_tokens: 512 } })).toThrow(/at least 1024/);
    expect(() => adapter({ maxTokens: 2048, thinking: { type: "enabled", budget_tokens: 4096 } })).toThrow(
      /raise maxTokens/,
    );
    expect(() =>
      adapter({ maxTokens: 2048, interleavedThinking: true, thinking: { type: "enabled", budget_tokens: 4096 } }),
    ).not.toThrow();
  });
});
