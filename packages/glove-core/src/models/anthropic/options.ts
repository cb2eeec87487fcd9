import type { HttpAdapterOptions } from "../shared/adapter-options.js";

/** Options of AnthropicAdapter: model, key, endpoint, prompt caching and extended thinking. */
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
  /** Extended thinking, sent verbatim (e.g. { type: "enabled", budget_tokens: 2048 }). */
  thinking?: { type: "enabled" | "disabled"; budget_tokens?: number };
  /** Extra headers (e.g. anthropic-beta). */
  headers?: Record<string, string>;
  /** Provider id for the adapter name and errors (default "anthropic"). */
  provider?: string;
}

/** Token counts of the last prompt, including the cache split. */
export interface AnthropicUsage {
  input_tokens: number;
  output_tokens: number;
  cache_creation_input_tokens: number;
  cache_read_input_tokens: number;
}
