import { describe, expect, it, vi } from "vitest";
import { MemoryStore, type Message } from "glove-core";
import { pendingQuestions } from "../../src/runtime/stored-questions.js";
import type { WaitStore } from "../../src/runtime/call-waits.js";

// A server lists the waiting questions before every message: with no unanswered call in the
// history no question can wait (own or a subagent's), so the store is not read.
describe("pendingQuestions", () => {
  it("reads no waits when the history has no unanswered call, and lists the pending ones when it has", async () => {
    const store = new MemoryStore("c") as unknown as WaitStore;
    await store.addWait({
      id: "q1",
      kind: "question",
      status: "pending",
      toolCallId: "call-1",
      toolName: "ask",
      position: 0,
      renderer: "form",
      input: { a: 1 },
      created_at: "2026-01-01T00:00:00.000Z",
      settled_at: null,
    });
    const getWaits = vi.spyOn(store, "getWaits");
    const answered: Message[] = [
      { sender: "user", text: "hi" },
      { sender: "agent", text: "", tool_calls: [{ tool_name: "ask", input_args: {}, id: "call-1" }] },
      {
        sender: "user",
        text: "",
        tool_results: [{ tool_name: "ask", call_id: "call-1", result: { status: "success", data: "ok" } }],
      },
      { sender: "agent", text: "done" },
    ];
    expect(await pendingQuestions(store, answered)).toEqual([]);
    expect(getWaits).not.toHaveBeenCalled();
    const open = answered.slice(0, 2);
    expect((await pendingQuestions(store, open)).map((q) => q.id)).toEqual(["q1"]);
    expect(getWaits).toHaveBeenCalled();
  });
});
