import type { NotifySubscribersFunction, StructuredOutputRequest } from "../../types/index.js";

/**
 * Structured output through a forced tool, for providers or models without a native JSON-schema
 * mode: the request offers one extra tool named after the output and forces it; the reader
 * turns that tool's call into the answer text (its input as JSON) instead of a tool call, so the
 * runtime sees a plain final answer and validates it like any other.
 */
export interface OutputTool {
  name: string;
  description: string;
  schema: Record<string, unknown>;
}

/** The forced answer tool for `output`. */
export function outputTool(output: StructuredOutputRequest): OutputTool {
  return {
    name: output.name,
    description:
      output.description ?? `Give your final answer by calling this tool: its input is the answer (${output.name}).`,
    schema: output.schema,
  };
}

/** The answer text of the forced tool's call: its input as JSON text. */
export function outputToolAnswer(input: unknown): string {
  return typeof input === "string" ? input : JSON.stringify(input ?? {});
}

/**
 * Tells subscribers the provider refused (`model_refusal`), when it did; the message is marked by
 * the caller. Anthropic says so with stop reason "refusal".
 */
export async function announceRefusal(
  notify: NotifySubscribersFunction,
  refused: boolean,
  text: string,
): Promise<void> {
  if (refused) await notify("model_refusal", { text });
}
