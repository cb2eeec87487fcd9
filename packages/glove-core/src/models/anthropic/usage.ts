import type { ModelPromptResult, ReasoningBlock, ToolCall } from "../../types/index.js";
import { estimateTokens } from "../shared/messages.js";
import { agentMessage } from "../shared/response.js";
import { addCounts, tokenCount, type WireShape } from "../shared/wire-shape.js";
import type { AnthropicUsage } from "./options.js";
import type { Usage } from "./wire-types.js";

/** What the response readers need to know about their adapter (and, for `outputTool`, the request). */
export interface MessagesReadContext {
  provider: string;
  /** Receives the usage of the answer before subscribers hear of it. */
  recordUsage(usage: AnthropicUsage): void;
  /** The forced answer tool of a structured-output request in tool mode: its call is the answer text. */
  outputTool?: string;
}

/** What a reader gathered from one answer. */
export interface MessagesAnswer {
  text: string;
  reasoning: string;
  toolCalls: ToolCall[];
  reasoningBlocks: ReasoningBlock[];
  stopReason: string | undefined;
}

/** The stop reason Anthropic gives when the model declined to answer. */
export const REFUSAL_STOP_REASON = "refusal";

/**
 * The prompt result; the usage (every field filled in, estimated when the API sent none) is
 * recorded first. Reasoning blocks are stored with the message so the next turn can send them
 * back; a refusal marks the message.
 */
export function messagesResult(
  context: MessagesReadContext,
  answer: MessagesAnswer,
  reported: Usage | undefined,
  bodyChars: number,
): ModelPromptResult {
  const { text, reasoning, toolCalls } = answer;
  const usage: AnthropicUsage = {
    input_tokens: reported?.input_tokens ?? estimateTokens(bodyChars),
    output_tokens: reported?.output_tokens ?? estimateTokens(text.length + reasoning.length),
    cache_creation_input_tokens: reported?.cache_creation_input_tokens ?? 0,
    cache_read_input_tokens: reported?.cache_read_input_tokens ?? 0,
  };
  context.recordUsage(usage);
  const message = agentMessage(text, reasoning, toolCalls);
  if (answer.reasoningBlocks.length) message.reasoning_blocks = answer.reasoningBlocks;
  if (answer.stopReason === REFUSAL_STOP_REASON) message.is_refusal = true;
  // Like every adapter's, the message names the provider that produced it (see Message.provider).
  message.provider = context.provider;
  // tokens_in counts every input token, cached or not: compaction sizes the context with it.
  const tokens_in = addCounts(usage.input_tokens, usage.cache_creation_input_tokens, usage.cache_read_input_tokens);
  return { messages: [message], tokens_in, tokens_out: usage.output_tokens };
}

const USAGE_FIELDS = [
  "input_tokens",
  "output_tokens",
  "cache_creation_input_tokens",
  "cache_read_input_tokens",
] as const;

/**
 * Adds the counts of a `usage` object (message_start, message_delta, a whole body) to `into`: a
 * count that is not a non-negative integer ("12", -1, 1.5, null) is ignored, as if absent.
 */
export function mergeUsage(shape: WireShape, into: Usage, value: unknown, path: string): Usage {
  const usage = shape.optObject(value, path);
  if (!usage) return into;
  for (const key of USAGE_FIELDS) {
    const count = tokenCount(usage[key]);
    if (count !== undefined) into[key] = count;
  }
  return into;
}
