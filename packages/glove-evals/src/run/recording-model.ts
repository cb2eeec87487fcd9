import type { ModelAdapter } from "glove-core";
import type { ModelUsage } from "../costs/price-table.js";

/** What the model calls of one conversation cost, and the last error a call threw. */
export class ModelCallLog {
  readonly byModel = new Map<string, ModelUsage>();
  lastError: unknown;

  add(model: string, tokensIn: number, tokensOut: number): void {
    const entry = this.byModel.get(model) ?? { model, tokensIn: 0, tokensOut: 0, calls: 0 };
    entry.tokensIn += tokensIn;
    entry.tokensOut += tokensOut;
    entry.calls++;
    this.byModel.set(model, entry);
  }

  get usage(): ModelUsage[] {
    return [...this.byModel.values()].map((u) => ({ ...u }));
  }
}

/** The adapter with every call's tokens and errors written to `log`; it answers exactly as `inner` does. */
export function recordingModel(inner: ModelAdapter, log: ModelCallLog): ModelAdapter {
  return {
    name: inner.name,
    get supportsStructuredOutput() {
      return inner.supportsStructuredOutput;
    },
    setSystemPrompt: (prompt) => inner.setSystemPrompt(prompt),
    async prompt(request, notify, signal) {
      try {
        const result = await inner.prompt(request, notify, signal);
        log.add(inner.name, result.tokens_in ?? 0, result.tokens_out ?? 0);
        return result;
      } catch (error) {
        log.lastError = error;
        throw error;
      }
    },
  };
}
