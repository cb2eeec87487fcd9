import type { Turn } from "../shared/turns.js";

/** A Converse content block. */
export type Block = Record<string, unknown>;

export type ConverseMessage = Turn<Block>;

export interface BedrockUsage {
  inputTokens?: number;
  outputTokens?: number;
  cacheReadInputTokens?: number;
  cacheWriteInputTokens?: number;
}
