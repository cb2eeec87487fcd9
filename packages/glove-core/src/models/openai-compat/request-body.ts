import type { OpenAICompatAdapterOptions } from "./options.js";
import type { ReasoningSettings } from "./reasoning.js";

/**
 * The request body without messages and tools, as JSON text minus its closing
 * brace: it is the same on every prompt, so it is serialised once.
 */
export function requestBodyHead(options: OpenAICompatAdapterOptions, provider: string, stream: boolean, reasoning: ReasoningSettings): string {
  const r = reasoning.options;
  const head: Record<string, unknown> = { model: options.model };
  if (options.maxTokens !== undefined) {
    const field = options.maxTokensField ?? (provider === "openai" ? "max_completion_tokens" : "max_tokens");
    head[field] = options.maxTokens;
  }
  const effort = r?.effort ?? options.reasoningEffort;
  if (effort) head["reasoning_effort"] = effort;
  if (r?.reasoningObject) head["reasoning"] = r.reasoningObject;
  if (r?.thinking) head["thinking"] = r.thinking;
  if (r?.extraBody) Object.assign(head, r.extraBody);
  if (stream) {
    head["stream"] = true;
    if (options.streamUsage !== false) head["stream_options"] = { include_usage: true };
  }
  return JSON.stringify(head).slice(0, -1);
}
