/** Chat-completions wire shapes, as much of them as the adapter reads or writes. */

export type ChatContent = string | Array<Record<string, unknown>> | null;

export interface ChatMessage {
  role: "system" | "user" | "assistant" | "tool";
  content: ChatContent;
  tool_calls?: Array<{ id: string; type: "function"; function: { name: string; arguments: string } }>;
  tool_call_id?: string;
  reasoning_content?: string;
}

/** A tool call as received, arguments still JSON text. */
export interface StreamedCall {
  id: string;
  name: string;
  args: string;
}

export interface ChunkChoice {
  index?: number;
  delta?: {
    content?: string | null;
    reasoning_content?: string | null;
    reasoning?: string | null;
    tool_calls?: Array<{ index?: number; id?: string; function?: { name?: string; arguments?: string } }>;
  };
  message?: {
    content?: string | null;
    reasoning_content?: string | null;
    reasoning?: string | null;
    tool_calls?: Array<{ id?: string; function?: { name?: string; arguments?: string } }>;
  };
  finish_reason?: string | null;
}

/** A streamed chunk, or the whole body of a non-streamed answer. */
export interface ChunkBody {
  choices?: ChunkChoice[];
  usage?: { prompt_tokens?: number; completion_tokens?: number } | null;
  error?: { message?: string; type?: string; code?: string | number } | string;
}
