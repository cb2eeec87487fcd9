import { ConfigurationError } from "../../errors.js";
import type { AnthropicThinking } from "./options.js";

/** The smallest thinking budget the API accepts. */
export const MIN_THINKING_BUDGET = 1024;

/** Beta header value that lets Claude think between tool calls. */
export const INTERLEAVED_THINKING_BETA = "interleaved-thinking-2025-05-14";

/** Thinking as `createAdapter` takes it: on with defaults, or with a budget. */
export interface ThinkingOptions {
  /** Tokens the model may spend thinking (default: half of maxTokens, at least 1024). */
  budgetTokens?: number;
  /** Let the model think between tool calls (Claude 4 models). */
  interleaved?: boolean;
  /** Let the model choose how much to think (`{ type: "adaptive" }`, newer models); ignores budgetTokens. */
  adaptive?: boolean;
}

/** `createAdapter`'s `thinking` option as the Messages API's `thinking` field. */
export function thinkingConfig(option: boolean | ThinkingOptions, maxTokens: number): AnthropicThinking {
  if (option === false) return { type: "disabled" };
  const opts = option === true ? {} : option;
  if (opts.adaptive) return { type: "adaptive" };
  return { type: "enabled", budget_tokens: opts.budgetTokens ?? Math.max(MIN_THINKING_BUDGET, Math.floor(maxTokens / 2)) };
}

/**
 * Checks a thinking budget the way the API would, so a bad setting fails at construction with
 * advice instead of as an HTTP 400 on the first prompt.
 */
export function checkThinking(thinking: AnthropicThinking | undefined, maxTokens: number, interleaved: boolean, who: string): void {
  if (thinking?.type !== "enabled") return;
  const budget = thinking.budget_tokens;
  if (!Number.isInteger(budget) || budget < MIN_THINKING_BUDGET) {
    throw new ConfigurationError(`${who}: thinking.budget_tokens must be an integer of at least ${MIN_THINKING_BUDGET} (got ${String(budget)}).`);
  }
  if (!interleaved && budget >= maxTokens) {
    throw new ConfigurationError(
      `${who}: thinking.budget_tokens (${budget}) must be below maxTokens (${maxTokens}): raise maxTokens or lower the budget.`,
    );
  }
}
