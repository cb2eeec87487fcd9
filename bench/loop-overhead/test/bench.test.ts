import { describe, expect, it } from "vitest";
import type { Message } from "glove-core";
import { createBareSession } from "../bare-loop.js";
import { TEXT_TURN_TEXT, makeHistory, runSearch, SEARCH_INPUT } from "../fixtures.js";
import { createGloveSession } from "../glove-loop.js";

const REQUESTS = 3;

/** What must match between the loops: who spoke, and which turns carried tool calls or results. */
function shape(messages: Message[]): string[] {
  return messages.map(
    (m) => `${m.sender}${m.tool_calls?.length ? "+calls" : ""}${m.tool_results?.length ? "+results" : ""}`,
  );
}

describe("loop-overhead bench", () => {
  it("pre-populates about L messages ending on a complete exchange", () => {
    for (const L of [10, 100, 1000]) {
      const history = makeHistory(L);
      expect(history).toHaveLength(L);
      expect(history.at(-1)).toMatchObject({ sender: "agent" });
      expect(history.at(-1)!.tool_calls).toBeUndefined();
    }
  });

  it("glove and bare loops do the same work at L=10", async () => {
    const history = makeHistory(10);
    const glove = await createGloveSession(history);
    const bare = await createBareSession(history);
    for (let i = 0; i < REQUESTS; i++) {
      await glove.request();
      await bare.request();
    }
    const g = await glove.messages();
    const b = await bare.messages();

    expect(g).toHaveLength(10 + REQUESTS * 4);
    expect(b).toHaveLength(g.length);
    expect(shape(b)).toEqual(shape(g));
    for (const messages of [g, b]) {
      const results = messages.at(-2)!.tool_results!;
      expect(results).toHaveLength(1);
      expect(results[0]!.result).toMatchObject({ status: "success", data: runSearch(SEARCH_INPUT) });
      expect(messages.at(-1)).toMatchObject({ sender: "agent", text: TEXT_TURN_TEXT });
    }
    // Same events reach the subscriber/callback: deltas, tool_use, complete, token_consumption, tool_use_result.
    expect(bare.events).toBe(glove.events);
    expect(glove.events).toBeGreaterThan(0);
  });
});
