/**
 * Gemini's recorded calls through a whole Glove: the adapter fills its empty ids with positional
 * ones (call_0, call_1 on every turn), and the runtime's ToolCallIds must make them unique across
 * the conversation before any subscriber sees a tool_use event, then pair each result with the id
 * its call got, signature included, on the request that follows.
 */
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { makeGlove } from "../../../support/make-glove.js";
import { insideUtf8, whole } from "../support/index.js";
import { fixture, replayAdapter } from "./harness.js";

type Wire = Record<string, unknown>;

const temperature = {
  name: "get_current_temperature",
  description: "Current temperature of a city.",
  inputSchema: z.object({ city: z.string() }),
  async do({ city }: { city: string }) {
    return { status: "success" as const, data: city === "Paris" ? "18C" : "14C" };
  },
};

describe("Gemini's empty tool-call ids through the Glove pipeline", () => {
  for (const chunking of [whole, insideUtf8]) {
    it(`ids are unique before subscribers see them and results go back under them (${chunking === whole ? "whole" : "inside UTF-8"})`, async () => {
      const turn = [
        { fixture: fixture("gemini-parallel-signed"), chunking },
        { fixture: fixture("gemini-answer"), chunking },
      ];
      const { adapter, script } = replayAdapter([...turn, ...turn]);
      const { glove, events } = makeGlove([], { model: adapter });
      glove.fold(temperature);

      await glove.processRequest("Temperatures in Paris and London?");
      await glove.processRequest("And again?");

      const announced = events.ofType("tool_use").map((e) => e.id);
      expect(announced).toHaveLength(4);
      expect(announced.every((id) => id.length > 0)).toBe(true);
      expect(new Set(announced).size).toBe(4);

      // Each answering request (2nd and 4th) carries the calls under the announced ids, the
      // signature on the first, and the results paired with the same ids.
      for (const [request, ids] of [
        [1, announced.slice(0, 2)],
        [3, announced.slice(2, 4)],
      ] as const) {
        const messages = script.body(request)["messages"] as Wire[];
        const assistant = messages.filter((m) => m["role"] === "assistant" && m["tool_calls"]).at(-1)!;
        const calls = assistant["tool_calls"] as Wire[];
        expect(calls.map((c) => c["id"])).toEqual(ids);
        expect(calls[0]!["extra_content"]).toEqual({ google: { thought_signature: "EnEKbwERTTIP0Zk3tjLvi9mRksxP" } });
        expect(calls[1]).not.toHaveProperty("extra_content");
        const results = messages.slice(messages.indexOf(assistant) + 1).filter((m) => m["role"] === "tool");
        expect(results.map((m) => [m["tool_call_id"], (JSON.parse(m["content"] as string) as Wire)["data"]])).toEqual([
          [ids[0], "18C"],
          [ids[1], "14C"],
        ]);
      }
      // Turn one's calls went back again unchanged in the last request's history.
      const history = script.body(3)["messages"] as Wire[];
      const first = history.find((m) => m["role"] === "assistant" && m["tool_calls"])!;
      expect((first["tool_calls"] as Wire[]).map((c) => c["id"])).toEqual(announced.slice(0, 2));
    });
  }
});

describe("structured output through the Glove pipeline", () => {
  it("a recorded json_schema answer comes back parsed, and the request asked for it natively", async () => {
    const { adapter, script } = replayAdapter([{ fixture: fixture("openai-json-schema-whole") }]);
    const { glove } = makeGlove([], { model: adapter });
    const event = z.object({ name: z.string(), date: z.string(), participants: z.array(z.string()) });
    const result = await glove.processRequest("Alice and Bob are going to a science fair on Friday.", {
      output: event,
    });
    expect(result.output).toEqual({ name: "Science Fair", date: "Friday", participants: ["Alice", "Bob"] });
    const format = script.body(0)["response_format"] as Wire;
    expect(format["type"]).toBe("json_schema");
    expect((format["json_schema"] as Wire)["strict"]).toBe(true);
  });
});
