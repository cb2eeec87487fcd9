import type { Turn } from "../shared/turns.js";

/** A Messages API content block. */
export type Block = Record<string, unknown> & { type: string };

export type AnthropicMessage = Turn<Block>;

/** Usage as the API reports it (any field may be missing or null). */
export interface Usage {
  input_tokens?: number;
  output_tokens?: number;
  cache_creation_input_tokens?: number | null;
  cache_read_input_tokens?: number | null;
}
