import type { HttpAdapterOptions } from "../shared/adapter-options.js";

/**
 * Extended thinking as the Messages API takes it: `enabled` with a token budget (at least 1024,
 * below `max_tokens` unless thinking is interleaved), `adaptive` (the model decides; newer
 * models), or `disabled`.
 */
export type AnthropicThinking =
  { type: "enabled"; budget_tokens: number } | { type: "adaptive" } | { type: "disabled" };

/** Options of AnthropicAdapter: model, key, endpoint, prompt caching, extended thinking and structured output. */
export interface AnthropicAdapterOptions extends HttpAdapterOptions {
  apiKey?: string;
  /** Default https://api.anthropic.com; `/v1/messages` is appended. */
  baseURL?: string;
  /** Required by the API (default 8192). */
  maxTokens?: number;
  /** anthropic-version header (default 2023-06-01). */
  version?: string;
  /** Mark the system prompt as a prompt-cache breakpoint (default true). */
  cacheSystemPrompt?: boolean;
  /**
   * Extended thinking, sent as given. Thinking blocks come back with their signatures in
   * `Message.reasoning_blocks` and are returned on the next turn, as a tool loop with thinking requires.
   */
  thinking?: AnthropicThinking;
  /** Lets the model think between tool calls (adds the `interleaved-thinking-2025-05-14` beta header). */
  interleavedThinking?: boolean;
  /**
   * How `PromptRequest.output` is asked for: "native" (default) sends `output_config.format`
   * (JSON schema; models from Claude Sonnet 4.5 / Opus 4.1 on); "tool" forces a single tool whose
   * input is the answer, for older models (not combinable with `thinking: { type: "enabled" }`:
   * the API refuses a forced tool choice with manual thinking; adaptive thinking accepts it).
   */
  structuredOutput?: "native" | "tool";
  /** Extra headers (e.g. anthropic-beta). */
  headers?: Record<string, string>;
  /** Provider id for the adapter name, errors and the `provider` of reasoning blocks (default "anthropic"). */
  provider?: string;
}

/** Token counts of the last prompt, including the cache split. */
export interface AnthropicUsage {
  input_tokens: number;
  output_tokens: number;
  cache_creation_input_tokens: number;
  cache_read_input_tokens: number;
}
