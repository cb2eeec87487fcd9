import { extractJson, PERMISSION_REQUEST_RENDERER, type Message, type WireSlot } from "glove-core";
import type { RecordedQuestion, TimelineEntry, ToolCallRecord } from "./run-types.js";
import type { FeedEvent } from "./event-feed.js";

/** What the events of one run told so far: the timeline and the questions. */
export class RunState {
  readonly timeline: TimelineEntry[] = [];
  readonly questions: RecordedQuestion[] = [];

  /** Notes an event; returns the slot when it is a question waiting for the person. */
  observe(event: FeedEvent): WireSlot | undefined {
    const { type, data } = event;
    if (data.agentPath) return undefined; // a subagent's own calls are not the agent's trajectory
    if (type === "model_response_complete" || type === "model_response") {
      for (const call of (data.tool_calls as Array<{ id?: string; tool_name: string }> | undefined) ?? []) {
        this.timeline.push({ kind: "tool_call", id: call.id ?? "", name: call.tool_name });
      }
    } else if (type === "tool_use_result") {
      const result = data.result as { status?: string } | undefined;
      this.timeline.push({
        kind: "tool_result",
        id: (data.call_id as string | undefined) ?? null,
        name: data.tool_name as string,
        status: result?.status ?? "unknown",
      });
    } else if (type === "slot_push") {
      const slot = data.slot as WireSlot;
      if (slot.mode !== "wait" || slot.status !== "pending") return undefined;
      if (this.questions.some((q) => q.slotId === slot.id)) return undefined; // replayed
      const kind = slot.renderer === PERMISSION_REQUEST_RENDERER ? "permission" : "form";
      this.questions.push({
        slotId: slot.id,
        kind,
        toolName: slot.toolName,
        toolCallId: slot.toolCallId,
        renderer: slot.renderer,
        input: slot.input,
        answer: null,
      });
      this.timeline.push({
        kind: "question",
        slotId: slot.id,
        question: kind,
        toolName: slot.toolName,
        toolCallId: slot.toolCallId,
      });
      return slot;
    }
    return undefined;
  }
}

/** The agent's tool calls in the stored messages, each with its result. */
export function toolCallsOf(messages: Message[]): ToolCallRecord[] {
  const results = new Map<string, { status: string; data: unknown }>();
  for (const m of messages) for (const r of m.tool_results ?? []) if (r.call_id) results.set(r.call_id, r.result);
  return messages.flatMap((m) =>
    m.sender !== "agent"
      ? []
      : (m.tool_calls ?? []).map((call) => {
          const result = call.id ? results.get(call.id) : undefined;
          return {
            id: call.id ?? "",
            name: call.tool_name,
            args: call.input_args,
            ...(result ? { status: result.status, result: result.data } : {}),
          };
        }),
  );
}

/** The last answer of the agent, and it as JSON when it is. */
export function finalAnswer(messages: Message[]): { output: string; structured?: unknown } {
  const last = [...messages].reverse().find((m) => m.sender === "agent" && !m.is_compaction && m.text);
  const output = last?.text ?? "";
  const json = output ? extractJson(output) : undefined;
  return json ? { output, structured: json.value } : { output };
}
