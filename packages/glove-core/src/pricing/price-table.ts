/** What a model costs: US dollars per million input and output tokens. */
export interface ModelPrice {
  inputPerMillion: number;
  outputPerMillion: number;
}

/** Model id → price. Keys are model ids ("gpt-4o-mini") or adapter names ("openai:gpt-4o-mini"). */
export type PriceTable = Readonly<Record<string, ModelPrice>>;

/**
 * List prices (USD per 1M tokens) of common models when this table was written. Providers change
 * prices: extend or override it with `withPrices`, and check yours before trusting a total.
 * Scripted models cost nothing.
 */
export const DEFAULT_PRICES: PriceTable = Object.freeze({
  scripted: { inputPerMillion: 0, outputPerMillion: 0 },
  "claude-opus-4-1": { inputPerMillion: 15, outputPerMillion: 75 },
  "claude-sonnet-4-5": { inputPerMillion: 3, outputPerMillion: 15 },
  "claude-haiku-4-5": { inputPerMillion: 1, outputPerMillion: 5 },
  "gpt-4o": { inputPerMillion: 2.5, outputPerMillion: 10 },
  "gpt-4o-mini": { inputPerMillion: 0.15, outputPerMillion: 0.6 },
  "gpt-4.1": { inputPerMillion: 2, outputPerMillion: 8 },
  "gpt-4.1-mini": { inputPerMillion: 0.4, outputPerMillion: 1.6 },
  "gpt-5": { inputPerMillion: 1.25, outputPerMillion: 10 },
  "gpt-5-mini": { inputPerMillion: 0.25, outputPerMillion: 2 },
  "gemini-2.5-pro": { inputPerMillion: 1.25, outputPerMillion: 10 },
  "gemini-2.5-flash": { inputPerMillion: 0.3, outputPerMillion: 2.5 },
});

/** A table with `extra` added over `base` (default `DEFAULT_PRICES`); later entries win. */
export function withPrices(extra: PriceTable, base: PriceTable = DEFAULT_PRICES): PriceTable {
  return Object.freeze({ ...base, ...extra });
}

/**
 * The price of a model by its adapter name ("anthropic:claude-sonnet-4-5") or id: the exact name,
 * then the part after the provider prefix, then the longest key the id starts with (dated ids like
 * "claude-sonnet-4-5-20250929"). Undefined when the table does not know it.
 */
export function priceOf(model: string, table: PriceTable = DEFAULT_PRICES): ModelPrice | undefined {
  if (table[model]) return table[model];
  const id = model.includes(":") ? model.slice(model.indexOf(":") + 1) : model;
  if (table[id]) return table[id];
  const prefix = Object.keys(table)
    .filter((key) => id.startsWith(key))
    .sort((a, b) => b.length - a.length)[0];
  return prefix ? table[prefix] : undefined;
}

/** Tokens used by one model. */
export interface ModelUsage {
  model: string;
  tokensIn: number;
  tokensOut: number;
  calls: number;
}

/** Dollars for some usage, and the models the table had no price for (counted as 0). */
export function costOf(usage: ModelUsage[], table: PriceTable = DEFAULT_PRICES): { usd: number; unpriced: string[] } {
  let usd = 0;
  const unpriced = new Set<string>();
  for (const u of usage) {
    const price = priceOf(u.model, table);
    if (!price) {
      if (u.tokensIn || u.tokensOut) unpriced.add(u.model);
      continue;
    }
    usd += (u.tokensIn * price.inputPerMillion + u.tokensOut * price.outputPerMillion) / 1_000_000;
  }
  return { usd, unpriced: [...unpriced] };
}
