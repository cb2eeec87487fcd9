import type { HttpAdapterOptions } from "../shared/adapter-options.js";

/** How hard a reasoning model should think; "minimal" asks for the least. */
export type ReasoningEffort = "minimal" | "low" | "medium" | "high";

/** Fine-grained reasoning configuration for OpenAI-compatible providers (spec: OpenAICompatReasoningOptions). */
export interface OpenAICompatReasoningOptions {
  /** Wrap reasoning in <think>...</think> and prepend to visible text. Default false. */
  includeInText?: boolean;
  /** Echo Message.reasoning_content back on tool-calling turns. Default true. */
  echo?: boolean;
  /** Top-level reasoning_effort request field. */
  effort?: ReasoningEffort;
  /** OpenRouter-style reasoning object — sent verbatim. */
  reasoningObject?: {
    effort?: "low" | "medium" | "high";
    max_tokens?: number;
    exclude?: boolean;
    enabled?: boolean;
  };
  /** Anthropic-style thinking object — for OpenAI shims that forward it. */
  thinking?: { type: "enabled" | "disabled"; budget_tokens?: number };
  /** Escape hatch — merged into the request body. */
  extraBody?: Record<string, unknown>;
}

/** Options of OpenAICompatAdapter: endpoint, key, token field and reasoning settings. */
export interface OpenAICompatAdapterOptions extends HttpAdapterOptions {
  /** `https://api.openai.com/v1`-style base; `/chat/completions` is appended. */
  baseURL: string;
  apiKey?: string;
  /** Provider id used in the adapter name and in ProviderError (default "openai"). */
  provider?: string;
  /** Request field for maxTokens (default: max_completion_tokens for "openai", max_tokens elsewhere). */
  maxTokensField?: "max_tokens" | "max_completion_tokens";
  /** Ask for usage in the last streamed chunk (default true). */
  streamUsage?: boolean;
  reasoning?: boolean | OpenAICompatReasoningOptions;
  reasoningEffort?: ReasoningEffort;
  includeReasoningInText?: boolean;
  /** Extra headers (e.g. OpenRouter's HTTP-Referer / X-Title). */
  headers?: Record<string, string>;
  /**
   * Send structured-output requests as `response_format: { type: "json_schema", … }` (default
   * true), with `strict: true` when the schema fits OpenAI's strict subset. Turn off for servers
   * without JSON-schema mode (DeepSeek, some local servers): Glove then asks for the JSON in the
   * prompt and still validates the answer.
   */
  nativeStructuredOutput?: boolean;
}
