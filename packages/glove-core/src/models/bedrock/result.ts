import type { ModelPromptResult, ToolCall } from "../../types/index.js";
import { estimateTokens } from "../shared/messages.js";
import { agentMessage } from "../shared/response.js";
import type { BedrockUsage } from "./wire-types.js";

/** The prompt result; input tokens include cached ones (compaction sizes the context with them). */
export function converseResult(text: string, reasoning: string, toolCalls: ToolCall[], usage: BedrockUsage, bodyChars: number): ModelPromptResult {
  const tokens_in =
    usage.inputTokens !== undefined
      ? usage.inputTokens + (usage.cacheReadInputTokens ?? 0) + (usage.cacheWriteInputTokens ?? 0)
      : estimateTokens(bodyChars);
  const tokens_out = usage.outputTokens ?? estimateTokens(text.length + reasoning.length);
  return { messages: [agentMessage(text, reasoning, toolCalls)], tokens_in, tokens_out };
}
