/**
 * The turn trace is saved when it changes: streamed text after a model call's span opened changes
 * nothing, so a long stream is not saved again at every interval (nor touched per event). Span ids
 * come from a pool of random bytes.
 */
import { afterEach, describe, expect, it } from "vitest";
import { TurnTraceRecorder } from "../src/conversations/turn-trace-recorder.js";
import type { TurnTrace } from "../src/storage/inspect/types.js";

const recorders: TurnTraceRecorder[] = [];
afterEach(() => {
  for (const recorder of recorders.splice(0)) recorder.discard();
});

function recorder(saved: TurnTrace[]): TurnTraceRecorder {
  const store = {
    save: async (trace: TurnTrace) => void saved.push(trace),
    get: async () => undefined,
    list: async () => [],
  };
  const made = new TurnTraceRecorder({
    store,
    conversationId: "c",
    turnId: "t",
    model: "m",
    saveEveryMs: 10,
    log: () => undefined,
  });
  recorders.push(made);
  return made;
}

const tick = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("TurnTraceRecorder saves", () => {
  it("once for a model call's first streamed text, not again while only text streams", async () => {
    const saved: TurnTrace[] = [];
    const traces = recorder(saved);
    traces.observe("text_delta", { text: "a" });
    await tick(40);
    const afterOpen = saved.length;
    expect(afterOpen).toBeGreaterThanOrEqual(1);
    expect(saved.at(-1)!.spans.map((s) => s.kind)).toEqual(["model_call"]);
    for (let i = 0; i < 20; i++) {
      traces.observe("text_delta", { text: "b" });
      await tick(5);
    }
    await tick(40);
    expect(saved.length).toBe(afterOpen);
  });

  it("still opens one span per model call and ends it with the response, streamed text or not", async () => {
    const saved: TurnTrace[] = [];
    const traces = recorder(saved);
    traces.observe("text_delta", { text: "a" });
    traces.observe("text_delta", { text: "b" });
    traces.observe("model_response_complete", {
      text: "ab",
      tool_calls: [],
      stop_reason: "stop",
      tokens_in: 3,
      tokens_out: 2,
    } as never);
    traces.observe("tool_use", { id: "1", name: "x", input: {} } as never);
    traces.observe("text_delta", { text: "c" });
    await traces.end("done");
    const spans = saved.at(-1)!.spans;
    expect(spans.map((s) => [s.kind, s.status])).toEqual([
      ["model_call", "ok"],
      ["model_call", "ok"],
    ]);
  });
});

describe("span ids", () => {
  it("are 16 hex characters, distinct across many spans (past a refill of their random pool)", async () => {
    const { newSpanId } = await import("../src/conversations/span-id.js");
    const ids = Array.from({ length: 3000 }, () => newSpanId());
    for (const id of ids) expect(id).toMatch(/^[0-9a-f]{16}$/);
    expect(new Set(ids).size).toBe(ids.length);
  });
});
