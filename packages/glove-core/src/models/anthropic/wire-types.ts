import type { Turn } from "../shared/turns.js";

/** A Messages API content block. */
export type Block = Record<string, unknown> & { type: string };

export type AnthropicMessage = Turn<Block>;

/** Usage as read from the API: each count a non-negative integer, or absent (missing, null or unusable). */
export interface Usage {
  input_tokens?: number;
  output_tokens?: number;
  cache_creation_input_tokens?: number;
  cache_read_input_tokens?: number;
}
