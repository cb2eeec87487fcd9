/**
 * A recorded streamed tool_use (text first, input in pieces, newer `caller` / `stop_details`
 * fields): what the adapter reads from it under every chunking, and the assistant turn and tool
 * result it sends back on the next request.
 */
import { describe, expect, it } from "vitest";
import type { Message, Tool } from "glove-core";
import { replayFetch, replayServers, standardChunkings } from "../support/index.js";
import { adapter, events, recorded, stored } from "./harness.js";

const startServer = replayServers();

const getWeather: Tool<unknown> = {
  name: "get_weather",
  description: "Weather for a city.",
  jsonSchema: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
  run: async () => "sunny",
};
const question: Message = { sender: "user", text: "What is the weather in San Francisco?" };
const CALL = { id: "toolu_01Ni1uw4HXYxUhc4iFMqx7yY", tool_name: "get_weather", input_args: { city: "San Francisco" } };

describe("Anthropic streamed tool_use (recorded)", () => {
  for (const chunking of standardChunkings) {
    it(`reads the text and the call the same under chunking: ${chunking.name}`, async () => {
      const { fetch } = replayFetch([{ response: recorded("tool-use-stream"), chunking: chunking.cut }]);
      const seen = events();
      const result = await adapter({ fetch, maxRetries: 0, thinking: undefined }).prompt(
        { messages: [question], tools: [getWeather] },
        seen.notify,
      );
      const reply = result.messages[0]!;
      expect(reply.text).toBe("Let me check.");
      expect(reply.tool_calls).toEqual([CALL]);
      expect([result.tokens_in, result.tokens_out]).toEqual([624, 59]);
      expect(
        seen.list
          .filter((e) => e.type === "text_delta")
          .map((e) => (e.data as { text: string }).text)
          .join(""),
      ).toBe("Let me check.");
      expect(seen.list.filter((e) => e.type === "tool_use").map((e) => e.data)).toMatchObject([
        { id: CALL.id, name: "get_weather", input: CALL.input_args },
      ]);
    });
  }

  it("sends the text and the tool_use back, then the tool result, without the provider-only `caller` field", async () => {
    const server = await startServer([
      { response: recorded("tool-use-stream") },
      { response: recorded("thinking-text") },
    ]);
    const model = adapter({ baseURL: server.url, thinking: undefined });
    const first = await model.prompt({ messages: [question], tools: [getWeather] }, events().notify);
    const reply = first.messages[0]!;
    const toolResult: Message = {
      sender: "user",
      text: "",
      tool_results: [{ tool_name: "get_weather", call_id: CALL.id, result: { status: "success", data: "sunny" } }],
    };
    await model.prompt({ messages: stored([question, reply, toolResult]), tools: [getWeather] }, events().notify);
    const sent = server.script.body(1)["messages"] as Array<{ role: string; content: Array<Record<string, unknown>> }>;
    expect(sent[1]).toEqual({
      role: "assistant",
      content: [
        { type: "text", text: "Let me check." },
        { type: "tool_use", id: CALL.id, name: "get_weather", input: { city: "San Francisco" } },
      ],
    });
    expect(sent[2]!.role).toBe("user");
    expect(sent[2]!.content[0]).toMatchObject({ type: "tool_result", tool_use_id: CALL.id });
  });
});
