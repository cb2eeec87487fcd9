import { describe, expect, it } from "vitest";
import { PERMISSION_REQUEST_RENDERER, type WireSlot } from "glove-core";
import { ChunkMapper, SLOT_DATA_PART } from "glove-client/ai-sdk";
import { foldChunks } from "../../src/ai-sdk/ui-messages.js";
import type { WireEvent } from "../../src/types/wire.js";

function mapAll(mapper: ChunkMapper, events: WireEvent[]) {
  return events.flatMap((event) => mapper.event(event).chunks);
}

const slot = (overrides: Partial<WireSlot>): WireSlot => ({
  id: "slot-1",
  renderer: PERMISSION_REQUEST_RENDERER,
  input: { tool_name: "delete_file", input: { path: "/tmp/x" }, call_id: "call-1" },
  toolName: "delete_file",
  toolCallId: "call-1",
  displayStrategy: null,
  mode: "wait",
  status: "pending",
  ...overrides,
});

describe("ChunkMapper: Glove events → UI message chunks", () => {
  it("streams text in one text part per model call, with steps around model calls and their tools", () => {
    const mapper = new ChunkMapper("t");
    const chunks = [
      ...mapper.start(),
      ...mapAll(mapper, [
        { type: "text_delta", text: "Let me " },
        { type: "text_delta", text: "look." },
        { type: "tool_use", id: "call-1", name: "get_weather", input: { city: "Oslo" } },
        {
          type: "model_response_complete",
          text: "Let me look.",
          tool_calls: [{ tool_name: "get_weather", input_args: { city: "Oslo" }, id: "call-1" }],
        },
        {
          type: "tool_use_result",
          tool_name: "get_weather",
          call_id: "call-1",
          result: { status: "success", data: { forecast: "sunny" } },
        },
        { type: "text_delta", text: "Sunny." },
        { type: "model_response_complete", text: "Sunny." },
        { type: "turn_end", turnId: "turn-1", status: "done" },
      ]),
    ];
    expect(chunks).toEqual([
      { type: "start" },
      { type: "start-step" },
      { type: "text-start", id: "t:text:1" },
      { type: "text-delta", id: "t:text:1", delta: "Let me " },
      { type: "text-delta", id: "t:text:1", delta: "look." },
      { type: "text-end", id: "t:text:1" },
      { type: "tool-input-available", toolCallId: "call-1", toolName: "get_weather", input: { city: "Oslo" } },
      { type: "tool-output-available", toolCallId: "call-1", output: { forecast: "sunny" } },
      { type: "finish-step" },
      { type: "start-step" },
      { type: "text-start", id: "t:text:2" },
      { type: "text-delta", id: "t:text:2", delta: "Sunny." },
      { type: "text-end", id: "t:text:2" },
      { type: "finish-step" },
      { type: "finish", finishReason: "stop" },
    ]);
  });

  it("takes a non-streaming adapter's whole answer from model_response", () => {
    const mapper = new ChunkMapper("t");
    const chunks = mapAll(mapper, [
      { type: "model_response", text: "All at once.", tool_calls: [{ tool_name: "x", input_args: {}, id: "c" }] },
    ]);
    expect(chunks.filter((c) => c.type === "text-delta")).toEqual([
      { type: "text-delta", id: "t:text:1", delta: "All at once." },
    ]);
    expect(chunks).toContainEqual({ type: "tool-input-available", toolCallId: "c", toolName: "x", input: {} });
  });

  it("a permission prompt is a tool approval request, and the response pauses there", () => {
    const mapper = new ChunkMapper("t");
    mapAll(mapper, [{ type: "tool_use", id: "call-1", name: "delete_file", input: { path: "/tmp/x" } }]);
    const mapped = mapper.event({ type: "slot_push", slot: slot({}) });
    expect(mapped.paused).toBe(true);
    expect(mapped.chunks).toEqual([
      { type: "tool-approval-request", approvalId: "slot-1", toolCallId: "call-1" },
      { type: "finish-step" },
      { type: "finish", finishReason: "tool-calls" },
    ]);
  });

  it("a prompt for a call the page never saw brings the call's input first", () => {
    const mapped = new ChunkMapper("t").event({ type: "slot_push", slot: slot({}) });
    expect(mapped.chunks.slice(0, 2)).toEqual([
      { type: "tool-input-available", toolCallId: "call-1", toolName: "delete_file", input: { path: "/tmp/x" } },
      { type: "tool-approval-request", approvalId: "slot-1", toolCallId: "call-1" },
    ]);
  });

  it("another question is a glove-slot data part; shown-only slots and settled ones are not questions", () => {
    const form = slot({ id: "form-1", renderer: "ask_age", input: { question: "Age?" }, toolName: "ask_age" });
    const mapper = new ChunkMapper("t");
    expect(mapper.event({ type: "slot_push", slot: { ...form, mode: "forget" } })).toEqual({
      chunks: [],
      paused: false,
    });
    expect(mapper.event({ type: "slot_push", slot: { ...form, status: "resolved" } })).toEqual({
      chunks: [],
      paused: false,
    });
    const mapped = mapper.event({ type: "slot_push", slot: form });
    expect(mapped.paused).toBe(true);
    expect(mapped.chunks[0]).toEqual({ type: SLOT_DATA_PART, id: "form-1", data: form });
  });

  it("a declined call's refusal is output-denied; other failures are output errors with the tool's message", () => {
    const mapper = new ChunkMapper("t", ["a", "b", "c"]);
    mapper.declined("a");
    const refused = { status: "error" as const, data: null, message: "The user declined permission" };
    expect(
      mapAll(mapper, [
        { type: "tool_use_result", tool_name: "x", call_id: "a", result: refused },
        { type: "tool_use_result", tool_name: "x", call_id: "b", result: { status: "error", data: "disk full" } },
        {
          type: "tool_use_result",
          tool_name: "x",
          call_id: "c",
          result: { status: "aborted", data: null, message: "stopped" },
        },
        // A result for a call the page has no part for would make the AI SDK throw: left out.
        { type: "tool_use_result", tool_name: "x", call_id: "unknown", result: { status: "success", data: 1 } },
      ]),
    ).toEqual([
      { type: "tool-output-denied", toolCallId: "a" },
      { type: "tool-output-error", toolCallId: "b", errorText: "disk full" },
      { type: "tool-output-error", toolCallId: "c", errorText: "stopped" },
    ]);
  });

  it("leaves a subagent's own events out", () => {
    const mapper = new ChunkMapper("t");
    expect(
      mapAll(mapper, [
        { type: "text_delta", text: "inner", agentPath: ["researcher"] },
        { type: "tool_use", id: "inner-1", name: "search", input: {}, agentPath: ["researcher"] },
      ]),
    ).toEqual([]);
  });

  it.each([
    ["done", [{ type: "finish", finishReason: "stop" }]],
    ["waiting", [{ type: "finish", finishReason: "stop" }]],
    ["aborted", [{ type: "abort", reason: "The turn was stopped." }]],
    ["error", [{ type: "error", errorText: "model down" }]],
    ["interrupted", [{ type: "error", errorText: "model down" }]],
  ] as const)("a turn that ends %s", (status, expected) => {
    const chunks = new ChunkMapper("t").event({
      type: "turn_end",
      turnId: "x",
      status,
      ...(status === "error" || status === "interrupted" ? { error: { code: "E", message: "model down" } } : {}),
    }).chunks;
    expect(chunks).toEqual(expected);
  });

  it("folds, with the AI SDK's own reader, into an assistant message with approval-requested", async () => {
    const mapper = new ChunkMapper("t");
    const chunks = [
      ...mapper.start("reply-1"),
      ...mapAll(mapper, [
        { type: "tool_use", id: "call-1", name: "delete_file", input: { path: "/tmp/x" } },
        { type: "slot_push", slot: slot({}) },
      ]),
    ];
    const message = await foldChunks(chunks);
    expect(message).toMatchObject({
      id: "reply-1",
      role: "assistant",
      parts: [
        { type: "step-start" },
        {
          type: "tool-delete_file",
          toolCallId: "call-1",
          state: "approval-requested",
          input: { path: "/tmp/x" },
          approval: { id: "slot-1" },
        },
      ],
    });
  });
});
