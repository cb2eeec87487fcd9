import { afterEach, describe, expect, it, vi } from "vitest";
import { MemoryTraceStore } from "../../src/storage/inspect/memory-trace-store.js";
import { DEFAULT_TRACE_LIMITS } from "../../src/storage/inspect/trace-limits.js";
import type { TurnTrace } from "../../src/storage/inspect/types.js";

const trace = (turnId: string, minute: number): TurnTrace => ({
  conversationId: "c",
  turnId,
  startedAt: new Date(Date.UTC(2026, 1, 1, 0, minute)).toISOString(),
  endedAt: null,
  status: "running",
  spans: [],
  truncated: false,
});

// A running turn's trace is saved every couple of seconds: a save must not read back the
// conversation's other traces (up to 200) to keep the newest ones.
describe("MemoryTraceStore", () => {
  afterEach(() => vi.restoreAllMocks());

  it("saves without parsing the conversation's other traces while under the bound, and still keeps only the newest past it", async () => {
    const store = new MemoryTraceStore({ ...DEFAULT_TRACE_LIMITS, tracesPerConversation: 3 });
    for (let turn = 1; turn <= 3; turn++) await store.save(trace(`turn-${turn}`, turn));
    const parse = vi.spyOn(JSON, "parse");
    await store.save(trace("turn-3", 3));
    await store.save(trace("turn-4", 4));
    await store.save(trace("turn-0", 0));
    expect(parse).not.toHaveBeenCalled();
    parse.mockRestore();
    expect((await store.list("c", { limit: 10 })).map((t) => t.turnId)).toEqual(["turn-4", "turn-3", "turn-2"]);
    expect((await store.list("c", { limit: 1, before: "turn-4" })).map((t) => t.turnId)).toEqual(["turn-3"]);
    expect(await store.get("c", "turn-1")).toBeUndefined();
  });
});
