import type { ModelPromptResult, ReasoningBlock, ToolCall } from "../../types/index.js";
import { estimateTokens, parseArgs } from "../shared/messages.js";
import { agentMessage } from "../shared/response.js";
import { addCounts, tokenCount, type WireShape } from "../shared/wire-shape.js";
import type { BedrockUsage } from "./wire-types.js";

/** What the readers need to know: the provider, and the forced answer tool of a structured-output request. */
export interface ConverseReadContext {
  provider: string;
  /** Its toolUse is the answer text (the input as JSON), not a tool call. */
  outputTool?: string;
}

/**
 * The prompt result; input tokens include cached ones (compaction sizes the context with them).
 * Reasoning blocks are stored with the message so the next turn sends them back.
 */
export function converseResult(
  provider: string,
  text: string,
  reasoning: string,
  toolCalls: ToolCall[],
  reasoningBlocks: ReasoningBlock[],
  usage: BedrockUsage,
  bodyChars: number,
): ModelPromptResult {
  const tokens_in =
    usage.inputTokens !== undefined
      ? addCounts(usage.inputTokens, usage.cacheReadInputTokens ?? 0, usage.cacheWriteInputTokens ?? 0)
      : estimateTokens(bodyChars);
  const tokens_out = usage.outputTokens ?? estimateTokens(text.length + reasoning.length);
  const message = agentMessage(text, reasoning, toolCalls);
  if (reasoningBlocks.length) message.reasoning_blocks = reasoningBlocks;
  // Like every adapter's, the message names the provider that produced it (see Message.provider).
  message.provider = provider;
  return { messages: [message], tokens_in, tokens_out };
}

const USAGE_FIELDS = ["inputTokens", "outputTokens", "cacheReadInputTokens", "cacheWriteInputTokens"] as const;

/** The counts of a `usage` object; a count that is not a non-negative integer is left out (then estimated). */
export function readUsage(shape: WireShape, value: unknown, path: string): BedrockUsage {
  const usage = shape.optObject(value, path);
  const out: BedrockUsage = {};
  if (!usage) return out;
  for (const key of USAGE_FIELDS) {
    const count = tokenCount(usage[key]);
    if (count !== undefined) out[key] = count;
  }
  return out;
}

/**
 * The input of a toolUse block: the object itself; JSON text is parsed like streamed input;
 * absent is `{}`. Anything else is the wrong shape.
 */
export function toolUseInput(shape: WireShape, value: unknown, path: string): unknown {
  if (value === undefined || value === null) return {};
  if (typeof value === "string") return parseArgs(value);
  return shape.object(value, path);
}
