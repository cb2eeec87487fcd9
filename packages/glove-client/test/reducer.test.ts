import { describe, expect, it } from "vitest";
import type { Message } from "glove-core";
import {
  buildTimeline,
  initialState,
  reduce,
  type GloveAction,
  type GloveState,
  type ToolEntry,
  type UserEntry,
} from "glove-client";

const run = (actions: GloveAction[], state: GloveState = initialState()) => actions.reduce(reduce, state);
const timeline = (state: GloveState) => buildTimeline(state);

describe("reducer", () => {
  it("streams text until the agent message is stored, then shows the stored message", () => {
    const state = run([
      { type: "turn_start", turnId: "t1" },
      { type: "messages_appended", messages: [{ sender: "user", text: "hi" }], startIndex: 0 },
      { type: "text_delta", text: "Hel" },
      { type: "text_delta", text: "lo." },
    ]);
    expect(state.streamingText).toBe("Hello.");
    const stored = reduce(state, {
      type: "messages_appended",
      messages: [{ sender: "agent", text: "Hello." }],
      startIndex: 1,
    });
    expect(stored.streamingText).toBe("");
    expect(timeline(stored).map((e) => e.kind)).toEqual(["user", "agent_text"]);
  });

  it("gives each tool call its own entry with its live and then stored result", () => {
    const calls: Message = {
      sender: "agent",
      text: "",
      tool_calls: [
        { id: "a", tool_name: "ask", input_args: { q: 1 } },
        { id: "b", tool_name: "ask", input_args: { q: 2 } },
      ],
    };
    let state = run([
      { type: "turn_start", turnId: "t1" },
      { type: "tool_use", id: "a", name: "ask", input: { q: 1 } },
      { type: "tool_use", id: "b", name: "ask", input: { q: 2 } },
    ]);
    expect(timeline(state).map((e) => e.key)).toEqual(["tool:a", "tool:b"]);
    state = run(
      [
        { type: "messages_appended", messages: [calls], startIndex: 0 },
        {
          type: "tool_use_result",
          tool_name: "ask",
          call_id: "b",
          result: { status: "success", data: "two", renderData: { n: 2 } },
        },
      ],
      state,
    );
    const [a, b] = timeline(state) as ToolEntry[];
    expect([a!.status, b!.status, b!.output, b!.renderData]).toEqual(["running", "success", "two", { n: 2 }]);
    state = run(
      [
        {
          type: "messages_appended",
          messages: [
            {
              sender: "user",
              text: "",
              tool_results: [
                { tool_name: "ask", call_id: "a", result: { status: "error", data: null, message: "no" } },
                { tool_name: "ask", call_id: "b", result: { status: "success", data: "two", renderData: { n: 2 } } },
              ],
            },
          ],
          startIndex: 1,
        },
        { type: "turn_end", turnId: "t1", status: "done" },
      ],
      state,
    );
    expect(timeline(state).map((e) => (e as ToolEntry).status)).toEqual(["error", "success"]);
    expect(state.liveTools).toEqual([]);
  });

  it("marks calls that never got a result as aborted when the turn ends", () => {
    const state = run([
      { type: "turn_start", turnId: "t1" },
      { type: "tool_use", id: "x", name: "slow", input: {} },
      { type: "turn_end", turnId: "t1", status: "aborted" },
    ]);
    expect((timeline(state)[0] as ToolEntry).status).toBe("aborted");
  });

  it("keeps streamed text that never got stored as an interrupted entry", () => {
    const state = run([
      { type: "messages_appended", messages: [{ sender: "user", text: "go" }], startIndex: 0 },
      { type: "turn_start", turnId: "t1" },
      { type: "text_delta", text: "Half a sen" },
      { type: "turn_end", turnId: "t1", status: "aborted" },
      { type: "messages_appended", messages: [{ sender: "user", text: "again" }], startIndex: 1 },
    ]);
    expect(timeline(state).map((e) => [e.kind, "text" in e ? e.text : ""])).toEqual([
      ["user", "go"],
      ["agent_text", "Half a sen"],
      ["user", "again"],
    ]);
    expect(state.error).toBeNull();
  });

  it("reconciles an optimistic message with the stored copy and keeps its key", () => {
    let state = run([{ type: "user_message_queued", clientMessageId: "m1", text: "Hello" }]);
    expect(timeline(state)).toEqual([
      { kind: "user", key: "user:m1", text: "Hello", status: "queued", clientMessageId: "m1" },
    ]);
    state = reduce(state, { type: "messages_appended", messages: [{ sender: "user", text: "Hello" }], startIndex: 0 });
    expect(state.pending).toEqual([]);
    expect(timeline(state)).toEqual([
      { kind: "user", key: "user:m1", text: "Hello", messageIndex: 0, clientMessageId: "m1" },
    ]);
  });

  it("shows a failed send on the entry and requeues it in place", () => {
    let state = run([
      { type: "user_message_queued", clientMessageId: "m1", text: "Hello" },
      {
        type: "user_message_status",
        clientMessageId: "m1",
        status: "failed",
        error: { code: "GLOVE_UNREACHABLE", message: "down" },
      },
    ]);
    expect((timeline(state)[0] as UserEntry).error?.code).toBe("GLOVE_UNREACHABLE");
    state = reduce(state, { type: "user_message_queued", clientMessageId: "m1", text: "Hello" });
    expect(state.pending).toEqual([{ clientMessageId: "m1", text: "Hello", status: "queued", baseIndex: 0 }]);
  });

  it("honours pre_modified_text, is_skill_injection and is_compaction in history", () => {
    const state = run([
      {
        type: "messages_appended",
        startIndex: 0,
        messages: [
          { sender: "user", text: "Be concise.", is_skill_injection: true },
          { sender: "user", text: "[invoked_extension__skill_concise] tell me", pre_modified_text: "/concise tell me" },
          { sender: "agent", text: "Short." },
          { sender: "user", text: "Summary: we talked.", is_compaction: true },
        ],
      },
    ]);
    const entries = timeline(state);
    expect(entries.map((e) => e.kind)).toEqual(["skill", "user", "agent_text", "compaction"]);
    expect(entries[1]).toMatchObject({
      text: "/concise tell me",
      storedText: "[invoked_extension__skill_concise] tell me",
    });
  });

  it("keeps settled slots with their status and numbers new ones in order", () => {
    const slot = (id: string) => ({
      id,
      renderer: "ask",
      input: {},
      toolName: "ask",
      toolCallId: id,
      displayStrategy: null,
      mode: "wait" as const,
      status: "pending" as const,
    });
    let state = run([
      { type: "slot_push", slot: slot("s1") },
      { type: "slot_push", slot: slot("s2") },
      { type: "slot_issues", slotId: "s1", issues: [{ path: "age", message: "Expected number" }] },
      { type: "slot_settled", slotId: "s1", status: "resolved" },
      { type: "slot_push", slot: slot("s1") }, // a replay never reopens it
    ]);
    expect(state.slots.map((s) => [s.id, s.seq, s.status, s.issues])).toEqual([
      ["s1", 0, "resolved", undefined],
      ["s2", 1, "pending", undefined],
    ]);
    state = reduce(state, { type: "slot_settled", slotId: "s1", status: "closed" });
    expect(state.slots[0]!.status).toBe("resolved");
  });

  it("counts model calls and tokens", () => {
    const state = run([
      { type: "model_response_complete", text: "a", tokens_in: 5, tokens_out: 2 },
      { type: "token_consumption", consumption: { tokens_in: 5, tokens_out: 2 } },
      { type: "model_response", text: "b" },
      { type: "token_consumption", consumption: { tokens_in: 7, tokens_out: 1 } },
    ]);
    expect(state.stats).toEqual({ turns: 2, tokens_in: 12, tokens_out: 3 });
  });

  it("a model call's retry changes nothing the page shows", () => {
    const before = run([{ type: "model_response_complete", text: "a" }]);
    const after = reduce(before, {
      type: "model_retry",
      provider: "openai",
      attempt: 1,
      delay_ms: 0,
      status: 503,
      reason: "busy",
    });
    expect(after).toBe(before);
  });
});
