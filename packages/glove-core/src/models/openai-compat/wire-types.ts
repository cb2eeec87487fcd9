/** Chat-completions wire shapes, as much of them as the adapter reads or writes. */

export type ChatContent = string | Array<Record<string, unknown>> | null;

/** A tool call as sent back: the provider's extra fields (e.g. `extra_content`) ride along verbatim. */
export interface ChatToolCall {
  [extra: string]: unknown;
  id: string;
  type: "function";
  function: { [extra: string]: unknown; name: string; arguments: string };
}

/** A chat message as sent; an assistant message may carry its provider's extras (e.g. `reasoning_details`). */
export interface ChatMessage {
  [extra: string]: unknown;
  role: "system" | "user" | "assistant" | "tool";
  content: ChatContent;
  tool_calls?: ChatToolCall[];
  tool_call_id?: string;
  reasoning_content?: string;
}

/** A tool call as received: arguments as JSON text, or as the object some servers send instead. */
export interface StreamedCall {
  id: string;
  name: string;
  args: string;
  /** Arguments sent as a JSON object rather than text: used as the parsed input. */
  input?: Record<string, unknown>;
  /** Every wire field besides id, type, index, function.name and function.arguments (see call-extras.ts). */
  extras?: Record<string, unknown>;
}

/** Token counts as reported, each a non-negative integer or absent (then estimated). */
export interface ChatUsage {
  prompt?: number;
  completion?: number;
}
