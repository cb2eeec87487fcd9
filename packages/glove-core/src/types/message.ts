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
  /**
   * Fields the provider attached to this call beyond name, id and arguments (for example Gemini's
   * `extra_content.google.thought_signature`), kept verbatim so the same adapter sends them back
   * on the next turn. Keyed by wire field; never shown to the model as text.
   */
  provider_extras?: Record<string, unknown>;
}

/**
 * A reasoning block exactly as the provider produced it, kept so the assistant turn can be sent
 * back unchanged (Anthropic and Bedrock refuse a tool loop whose thinking lost its signature).
 * Stored with the message, never shown to a model as text.
 */
export interface ReasoningBlock {
  type: "thinking" | "redacted_thinking";
  /** The visible reasoning of a `thinking` block. */
  text?: string;
  /** The provider's signature over the block; returned byte for byte. */
  signature?: string;
  /** The encrypted payload of a `redacted_thinking` block. */
  data?: string;
  /** The adapter family that produced it (e.g. "anthropic", "bedrock"); other families do not send it. */
  provider?: string;
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
  /** Reasoning blocks in the provider's order, with signatures, for sending the turn back. */
  reasoning_blocks?: ReasoningBlock[];
  /** The model refused: `text` holds the refusal the provider gave instead of an answer. */
  is_refusal?: boolean;
  /**
   * Fields the provider attached to the whole agent message beyond its text, tool calls, refusal
   * and reasoning text (for example OpenRouter's `reasoning_details`, Gemini's message-level
   * `extra_content`), kept verbatim — merged over stream deltas — so the same provider gets them
   * back on the next turn. Keyed by wire field; never shown to the model as text.
   */
  provider_extras?: Record<string, unknown>;
  /**
   * The provider id of the adapter that produced this agent message (e.g. "openrouter",
   * "gemini"). Adapters send `provider_extras` (the message's and its calls') back only to that
   * provider; a message without it, stored before the field existed, sends them to any.
   */
  provider?: string;
}
