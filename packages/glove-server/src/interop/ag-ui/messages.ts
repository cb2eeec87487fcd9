import type { Message, ToolResultData } from "glove-core";
import type { AgUiMessage } from "./events.js";

/** A tool result as AG-UI's string content: the data the model saw, or the error's message. */
export function toolResultContent(result: ToolResultData): string {
  if (result.status !== "success")
    return result.message ?? (typeof result.data === "string" ? result.data : JSON.stringify(result.data ?? null));
  return typeof result.data === "string" ? result.data : JSON.stringify(result.data ?? null);
}

/**
 * A Glove history as AG-UI messages (MESSAGES_SNAPSHOT): user and agent messages, and each tool
 * result as a `tool` message after the call. Compaction bookkeeping (the summary request and the
 * summary) is the model's view, not the conversation people had, so it is left out. Messages
 * without an id get one from their position, stable between snapshots; `renamed` maps stored ids
 * (a tool result's: `<message id>-result-<n>`) to the ids a client already knows them by.
 */
export function toAgUiMessages(
  history: readonly Message[],
  renamed: ReadonlyMap<string, string> = new Map(),
): AgUiMessage[] {
  const out: AgUiMessage[] = [];
  history.forEach((message, index) => {
    if (message.is_compaction || message.is_compaction_request) return;
    const stored = message.id ?? `glove-message-${index}`;
    // Messages this run streamed keep the ids the client saw (see run-stream.ts).
    const id = renamed.get(stored) ?? stored;
    if (message.sender === "agent") {
      const toolCalls = (message.tool_calls ?? []).map((call, n) => ({
        id: call.id ?? `${id}-call-${n}`,
        type: "function" as const,
        function: { name: call.tool_name, arguments: JSON.stringify(call.input_args ?? {}) },
      }));
      out.push({
        id,
        role: "assistant",
        ...(message.text !== "" ? { content: message.text } : {}),
        ...(toolCalls.length > 0 ? { toolCalls } : {}),
      });
      return;
    }
    (message.tool_results ?? []).forEach((result, n) => {
      if (result.call_id === undefined) return;
      const error = result.result.status === "success" ? {} : { error: result.result.status };
      out.push({
        id: renamed.get(`${stored}-result-${n}`) ?? `${id}-result-${n}`,
        role: "tool",
        toolCallId: result.call_id,
        content: toolResultContent(result.result),
        ...error,
      });
    });
    if (message.text !== "") out.push({ id, role: "user", content: message.text });
  });
  return out;
}

type ToolMessage = Extract<AgUiMessage, { role: "tool" }>;

/**
 * The snapshot with the tool results a run streamed that the stored history does not hold yet
 * (a parallel call's result while another call waits for a person: results are stored together),
 * each after its call's message and the results already there. Without them a client that replaces
 * its messages with the snapshot would drop a result it was shown, and the run that answers the
 * question does not send it again.
 */
export function withStreamedResults(
  messages: AgUiMessage[],
  streamed: ReadonlyMap<string, ToolMessage>,
): AgUiMessage[] {
  if (streamed.size === 0) return messages;
  const known = new Set(messages.flatMap((m) => (m.role === "tool" ? [m.toolCallId] : [])));
  const out = [...messages];
  for (const [callId, result] of streamed) {
    if (known.has(callId)) continue;
    const call = out.findIndex((m) => m.role === "assistant" && (m.toolCalls ?? []).some((c) => c.id === callId));
    let at = call < 0 ? out.length : call + 1;
    while (call >= 0 && at < out.length && out[at]!.role === "tool") at++;
    out.splice(at, 0, result);
  }
  return out;
}
