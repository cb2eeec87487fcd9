import type { StructuredOutputRequest } from "../../types/index.js";
import type { OpenAICompatAdapterOptions } from "./options.js";
import type { ReasoningSettings } from "./reasoning.js";
import { fitsStrictMode } from "./strict-schema.js";

/**
 * The request body without messages and tools, as JSON text minus its closing
 * brace: it is the same on every prompt, so it is serialised once.
 */
export function requestBodyHead(
  options: OpenAICompatAdapterOptions,
  provider: string,
  stream: boolean,
  reasoning: ReasoningSettings,
): string {
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

/**
 * The JSON-schema response format of a structured-output request: strict (the provider itself
 * holds the answer to the schema) when the schema fits strict mode, else a plain schema hint
 * rather than a refused request (see ./strict-schema.ts).
 */
export function responseFormat(output: StructuredOutputRequest): string {
  const jsonSchema: Record<string, unknown> = { name: output.name };
  if (output.description) jsonSchema["description"] = output.description;
  jsonSchema["schema"] = output.schema;
  jsonSchema["strict"] = fitsStrictMode(output.schema);
  return JSON.stringify({ type: "json_schema", json_schema: jsonSchema });
}
