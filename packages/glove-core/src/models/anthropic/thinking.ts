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
  return {
    type: "enabled",
    budget_tokens: opts.budgetTokens ?? Math.max(MIN_THINKING_BUDGET, Math.floor(maxTokens / 2)),
  };
}

/**
 * Checks a thinking budget the way the API would, so a bad setting fails at construction with
 * advice instead of as an HTTP 400 on the first prompt.
 */
export function checkThinking(
  thinking: AnthropicThinking | undefined,
  maxTokens: number,
  interleaved: boolean,
  who: string,
): void {
  if (thinking?.type !== "enabled") return;
  const budget = thinking.budget_tokens;
  if (!Number.isInteger(budget) || budget < MIN_THINKING_BUDGET) {
    throw new ConfigurationError(
      `${who}: thinking.budget_tokens must be an integer of at least ${MIN_THINKING_BUDGET} (got ${String(budget)}).`,
    );
  }
  if (!interleaved && budget >= maxTokens) {
    throw new ConfigurationError(
      `${who}: thinking.budget_tokens (${budget}) must be below maxTokens (${maxTokens}): raise maxTokens or lower the budget.`,
    );
  }
}

/**
 * True when the request continues a tool loop whose first assistant message does not open with a
 * reasoning block (the loop began without thinking, or its thinking came from another provider
 * and was left out). Thinking must then stay off for this request: with thinking on, the API
 * refuses a tool loop whose assistant turn does not start with thinking, and a tool loop is one
 * assistant turn, so it keeps the configuration it started with. Later messages of the loop need
 * no thinking of their own (the model does not think again after a tool result unless thinking
 * is interleaved).
 */
export function loopStartedWithoutThinking<B>(
  turns: ReadonlyArray<{ role: string; content: B[] }>,
  is: { reasoning(block: B): boolean; toolResult(block: B): boolean },
): boolean {
  const last = turns[turns.length - 1];
  if (!last || last.role !== "user" || !last.content.some((b) => is.toolResult(b))) return false;
  let opening: { content: B[] } | undefined;
  for (let i = turns.length - 1; i >= 0; i--) {
    const turn = turns[i]!;
    if (turn.role === "assistant") opening = turn;
    else if (!turn.content.some((b) => is.toolResult(b))) break;
  }
  const first = opening?.content[0];
  return opening !== undefined && (first === undefined || !is.reasoning(first));
}
