/**
 * Every way the network may cut a recorded Anthropic stream gives the same answer and the same
 * events: byte by byte, inside multi-byte UTF-8 characters, between the two newlines ending an
 * SSE event, at seeded random offsets, and (property) at any set of offsets.
 */
import { describe, expect, it } from "vitest";
import type { Message } from "glove-core";
import {
  expectAnyCutReadsWhole,
  expectStandardCutsReadWhole,
  replayFetch,
  type Chunking,
  type RecordedResponse,
} from "../support/index.js";
import { adapter, events, recorded } from "./harness.js";

const messages: Message[] = [{ sender: "user", text: "hi" }];

/** What one replay gives: the result and events, or the error's identifying fields. */
async function outcome(response: RecordedResponse, cut: Chunking): Promise<unknown> {
  const { fetch } = replayFetch([{ response, chunking: cut }]);
  const seen = events();
  try {
    const result = await adapter({ fetch, maxRetries: 0 }).prompt({ messages }, seen.notify);
    return { result, events: seen.list };
  } catch (error) {
    const e = error as { name: string; status?: number; providerCode?: string; retryable?: boolean };
    return {
      error: { name: e.name, status: e.status, code: e.providerCode, retryable: e.retryable },
      events: seen.list,
    };
  }
}

const STREAMS = ["redacted-thinking", "thinking-text", "overloaded-mid-stream", "tool-use-stream"];

describe("Anthropic recorded streams under every chunking", () => {
  for (const name of STREAMS) {
    it(`${name}: the standard chunkings all read like the whole body`, async () => {
      await expectStandardCutsReadWhole(recorded(name), outcome);
    });
  }

  it("property: any cut of any recorded stream reads like the whole body", async () => {
    await expectAnyCutReadsWhole(
      STREAMS.map((name) => recorded(name)),
      outcome,
    );
  });

  it("the recorded answers read as expected (so the comparisons above compare something)", async () => {
    const thinking = (await outcome(recorded("thinking-text"), (b) => [b])) as {
      result: { messages: Message[] };
      events: Array<{ type: string }>;
    };
    expect(thinking.result.messages[0]!.text).toBe("925 ÷ 5 = 185");
    expect(thinking.events.filter((e) => e.type === "text_delta")).toHaveLength(3);
    const failed = (await outcome(recorded("overloaded-mid-stream"), (b) => [b])) as {
      error: unknown;
      events: unknown[];
    };
    expect(failed.error).toEqual({ name: "ProviderError", status: 529, code: "overloaded_error", retryable: true });
    expect(failed.events).toEqual([]);
  });
});
