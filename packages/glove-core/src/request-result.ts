import type { Message, ModelPromptResult, RequestUsage } from "./types/index.js";

/** The final agent text of a model call's result: its messages' texts, in order. */
export function answerText(result: ModelPromptResult): string {
  return result.messages.map((m) => m.text).join("");
}

/**
 * Measures one request on a counter that only grows (`PromptMachine.usage`): call it before the
 * request, and the function it returns gives what the request added.
 */
export function usageSince(read: () => RequestUsage): () => RequestUsage {
  const start = read();
  return () => {
    const now = read();
    return {
      tokens_in: now.tokens_in - start.tokens_in,
      tokens_out: now.tokens_out - start.tokens_out,
      model_calls: now.model_calls - start.model_calls,
    };
  };
}

/** A result with the request's usage: a model's also gets its answer's `text` (a hook's message has one). */
export type WithUsage<R> = R extends ModelPromptResult
  ? R & { text: string; usage: RequestUsage }
  : R & { usage: RequestUsage };

/** Adds the request's usage (and a model result's text) to a copy of the result; structured fields are kept. */
export function withUsage<R extends ModelPromptResult | Message>(result: R, usage: RequestUsage): WithUsage<R> {
  const answer = "messages" in result ? { ...result, text: answerText(result), usage } : { ...result, usage };
  return answer as WithUsage<R>;
}
