/**
 * The AG-UI events (protocol 1.0, `@ag-ui/core`) this server sends, with the fields it fills in.
 * Spelled out here so glove-server does not depend on the AG-UI packages at run time; the tests
 * check every event sent against `@ag-ui/core`'s own schemas.
 */

/** The protocol version announced on RUN_STARTED. */
export const AG_UI_PROTOCOL_VERSION = "1.0";

/** One JSON Patch operation (RFC 6902), as STATE_DELTA carries them. */
export interface JsonPatchAdd {
  op: "add";
  path: string;
  value: unknown;
}

/** A tool call on an assistant message, in AG-UI's (OpenAI-like) shape. */
export interface AgUiToolCall {
  id: string;
  type: "function";
  function: { name: string; arguments: string };
}

export type AgUiMessage =
  | { id: string; role: "user"; content: string }
  | { id: string; role: "assistant"; content?: string; toolCalls?: AgUiToolCall[] }
  | { id: string; role: "tool"; toolCallId: string; content: string; error?: string };

/** Something a run needs from a person before it can go on: a Glove question (a waiting slot). */
export interface AgUiInterrupt {
  id: string;
  reason: string;
  message?: string;
  toolCallId?: string;
  responseSchema?: Record<string, unknown>;
  metadata?: Record<string, unknown>;
}

export type AgUiRunOutcome =
  { type: "success" } | { type: "interrupt"; interrupts: AgUiInterrupt[] } | { type: "cancelled" };

export type AgUiEvent =
  | { type: "RUN_STARTED"; threadId: string; runId: string; protocolVersion: string }
  | { type: "RUN_FINISHED"; threadId: string; runId: string; outcome: AgUiRunOutcome }
  | { type: "RUN_ERROR"; message: string; code?: string }
  | { type: "TEXT_MESSAGE_START"; messageId: string; role: "assistant" }
  | { type: "TEXT_MESSAGE_CONTENT"; messageId: string; delta: string }
  | { type: "TEXT_MESSAGE_END"; messageId: string }
  | { type: "TOOL_CALL_START"; toolCallId: string; toolCallName: string; parentMessageId?: string }
  | { type: "TOOL_CALL_ARGS"; toolCallId: string; delta: string }
  | { type: "TOOL_CALL_END"; toolCallId: string }
  | { type: "TOOL_CALL_RESULT"; messageId: string; toolCallId: string; content: string; role: "tool" }
  | { type: "STATE_SNAPSHOT"; snapshot: AgUiState }
  | { type: "STATE_DELTA"; delta: JsonPatchAdd[] }
  | { type: "MESSAGES_SNAPSHOT"; messages: AgUiMessage[] }
  | { type: "ACTIVITY_SNAPSHOT"; messageId: string; activityType: string; content: Record<string, unknown> };

/** The shared state of a Glove conversation: its tasks and its inbox, as the native snapshot lists them. */
export interface AgUiState {
  tasks: unknown[];
  inbox: unknown[];
}

/** Events as Server-Sent Events text: one `data:` line each, which is all AG-UI's HTTP transport reads. */
export function encodeEvents(events: readonly AgUiEvent[]): string {
  let text = "";
  for (const event of events) text += `data: ${JSON.stringify(event)}\n\n`;
  return text;
}
