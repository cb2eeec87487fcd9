import type { Message, PromptRequest, ToolResult } from "../../types/index.js";
import { toolJsonSchema, toolResultPayload } from "../shared/messages.js";
import type { RelayRequestBody } from "./protocol.js";

/**
 * A message as the relay needs it: what a model adapter reads, without the
 * client-only parts (tool results' `renderData`, summaries' arguments, the
 * pre-hook text). Those can be large and may be private to the UI; no model
 * ever sees them, so they never leave the browser. What the upstream adapter
 * needs to continue its own turns goes (signed reasoning blocks, refusals, the
 * producing provider and its extras on the message and its calls).
 */
export function toRelayMessage(message: Message): Message {
  const out: Message = { sender: message.sender, text: message.text };
  if (message.id !== undefined) out.id = message.id;
  if (message.content?.length) out.content = message.content;
  if (message.tool_calls?.length) out.tool_calls = message.tool_calls;
  if (message.tool_results?.length) out.tool_results = message.tool_results.map(toRelayResult);
  if (message.reasoning_content) out.reasoning_content = message.reasoning_content;
  if (message.reasoning_blocks?.length) out.reasoning_blocks = message.reasoning_blocks;
  if (message.is_refusal) out.is_refusal = true;
  if (message.provider !== undefined) out.provider = message.provider;
  if (message.provider_extras !== undefined) out.provider_extras = message.provider_extras;
  if (message.is_compaction) out.is_compaction = true;
  if (message.is_compaction_request) out.is_compaction_request = true;
  if (message.is_skill_injection) out.is_skill_injection = true;
  return out;
}

function toRelayResult(result: ToolResult): ToolResult {
  const payload = toolResultPayload(result.result);
  const status = payload.status as ToolResult["result"]["status"];
  const out: ToolResult = { tool_name: result.tool_name, result: { ...payload, status } };
  if (result.call_id !== undefined) out.call_id = result.call_id;
  return out;
}

/** The body POSTed to the relay for `request`. */
export function relayRequestBody(
  request: PromptRequest,
  options: { model?: string | undefined; maxTokens?: number | undefined; systemPrompt?: string | undefined },
): RelayRequestBody {
  const body: RelayRequestBody = { messages: request.messages.map(toRelayMessage) };
  if (options.model) body.model = options.model;
  const systemPrompt = request.systemPrompt ?? options.systemPrompt;
  if (systemPrompt) body.systemPrompt = systemPrompt;
  if (request.tools?.length) {
    body.tools = request.tools.map((tool) => ({
      name: tool.name,
      description: tool.description,
      parameters: toolJsonSchema(tool),
    }));
  }
  if (options.maxTokens !== undefined) body.maxTokens = options.maxTokens;
  if (request.output) body.output = request.output;
  return body;
}
