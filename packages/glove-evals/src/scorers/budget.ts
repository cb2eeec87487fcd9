import { costOf, DEFAULT_PRICES, type PriceTable } from "../costs/price-table.js";
import type { ItemRun } from "../run/run-types.js";
import type { Scorer } from "./scorer.js";

export interface BudgetLimits {
  name?: string;
  /** Input and output tokens together. */
  maxTokens?: number;
  maxModelCalls?: number;
  maxLatencyMs?: number;
  /** Dollars, priced with `prices` (default DEFAULT_PRICES). */
  maxCostUsd?: number;
  prices?: PriceTable;
}

/** 1 when the run stayed within every limit given, else 0 with what was exceeded. */
export function budget(limits: BudgetLimits): Scorer {
  return {
    name: limits.name ?? "budget",
    score(run: ItemRun) {
      const over: string[] = [];
      const tokens = run.usage.tokensIn + run.usage.tokensOut;
      if (limits.maxTokens !== undefined && tokens > limits.maxTokens)
        over.push(`${tokens} tokens > ${limits.maxTokens}`);
      if (limits.maxModelCalls !== undefined && run.usage.modelCalls > limits.maxModelCalls)
        over.push(`${run.usage.modelCalls} model calls > ${limits.maxModelCalls}`);
      if (limits.maxLatencyMs !== undefined && run.latencyMs > limits.maxLatencyMs)
        over.push(`${Math.round(run.latencyMs)} ms > ${limits.maxLatencyMs}`);
      if (limits.maxCostUsd !== undefined) {
        const { usd } = costOf(run.models, limits.prices ?? DEFAULT_PRICES);
        if (usd > limits.maxCostUsd) over.push(`$${usd.toFixed(4)} > $${limits.maxCostUsd}`);
      }
      return over.length ? { score: 0, reason: over.join("; ") } : { score: 1, reason: "within budget" };
    },
  };
}
