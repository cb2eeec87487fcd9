/** A multimodal content element within a message (images, documents, video, text). */
export interface ContentPart {
  type: "text" | "image" | "video" | "document";
  text?: string;
  source?: {
    /** "base64" or "url". */
    type: string;
    media_type: string;
    data?: string;
    url?: string;
  };
}

/** A tool invocation requested by the model. */
export interface ToolCall {
  tool_name: string;
  input_args: unknown;
  id?: string;
}

/** The outcome of a tool invocation. Only `status`, `data` and `message` ever reach a model. */
export interface ToolResultData {
  status: "success" | "error" | "aborted";
  /** Sent to the model as the tool result. */
  data: unknown;
  /** Error or abort explanation. */
  message?: string;
  /** Client-only payload for renderers; adapters never send it to a model. */
  renderData?: unknown;
  /** Set by the Executor from the tool's generateToolSummary; replaces `data` in older context when enabled. */
  summary?: string;
  /** Opaque payload handed to the tool's generateToolSummary. */
  generateSummaryArgs?: unknown;
}

/** The result of one tool call, as stored on the user message that carries it back to the model. */
export interface ToolResult {
  tool_name: string;
  call_id?: string;
  result: ToolResultData;
}

/** One entry of the conversation history. */
export interface Message {
  sender: "user" | "agent";
  id?: string;
  text: string;
  /** What the user typed before hooks rewrote it. */
  pre_modified_text?: string;
  content?: ContentPart[];
  tool_results?: ToolResult[];
  tool_calls?: ToolCall[];
  /** Marks a compaction summary; the model only sees history from the last one onward. */
  is_compaction?: boolean;
  /** Marks the synthetic user message that asks the model for a compaction summary. */
  is_compaction_request?: boolean;
  /** Marks a synthetic user message produced by a /skill invocation. */
  is_skill_injection?: boolean;
  /** Provider-emitted reasoning trace. */
  reasoning_content?: string;
}
