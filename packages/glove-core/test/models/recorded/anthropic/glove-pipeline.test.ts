/**
 * The recorded thinking + tool loop through a whole Glove (runtime, MemoryStore, tool execution):
 * the signed thinking block the first answer carried must survive the store and the model view and
 * open the assistant turn of the request that carries the tool result, as the recording's client sent it.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { makeGlove } from "../../../support/make-glove.js";
import { insideUtf8, replayFetch, whole } from "../support/index.js";
import { adapter, DIR, recorded } from "./harness.js";

const getUserCountry = {
  name: "get_user_country",
  description: "The user's country.",
  inputSchema: z.object({}),
  async do() {
    return { status: "success" as const, data: "Mexico" };
  },
};

describe("Anthropic thinking tool loop through the Glove pipeline", () => {
  for (const chunking of [whole, insideUtf8]) {
    it(`the second request opens the assistant turn with the signed thinking block (${chunking === whole ? "whole" : "inside UTF-8"})`, async () => {
      const { fetch, script } = replayFetch([
        { response: recorded("tool-loop-thinking.1"), chunking },
        { response: recorded("tool-loop-thinking.2"), chunking },
      ]);
      const { glove, store, events } = makeGlove([], { model: adapter({ fetch, stream: false }) });
      glove.fold(getUserCountry);

      const result = await glove.processRequest("What is the largest city in the user country?");
      expect("messages" in result && result.messages.at(-1)!.text).toContain("Ciudad de México");

      const expected = JSON.parse(
        readFileSync(join(DIR, "tool-loop-thinking.expected-assistant-turn.json"), "utf8"),
      ) as unknown;
      const sent = script.body(1)["messages"] as Array<{ role: string; content: Array<Record<string, unknown>> }>;
      expect(sent[1]).toEqual(expected);
      expect(sent[2]!.content[0]).toMatchObject({ type: "tool_result", tool_use_id: "toolu_01YGzqpRE16Vricda3Aqcejo" });
      expect(events.ofType("model_response")[0]!.tool_calls?.map((c) => c.id)).toEqual([
        "toolu_01YGzqpRE16Vricda3Aqcejo",
      ]);

      // Stored with the message, as the provider sent it.
      const saved = (await store.getMessages()).find((m) => m.reasoning_blocks?.length);
      expect(saved?.reasoning_blocks?.[0]).toMatchObject({
        type: "thinking",
        provider: "anthropic",
        signature: (expected as { content: Array<{ signature?: string }> }).content[0]!.signature,
      });
    });
  }
});
