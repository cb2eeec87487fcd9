/**
 * glove-core/prices — one price table for what model calls cost, shared by glove-evals' totals
 * and budgets and Glove Studio's waterfall. Imports nothing: safe in any bundle.
 */
export { costOf, DEFAULT_PRICES, priceOf, withPrices } from "./price-table.js";
export type { ModelPrice, ModelUsage, PriceTable } from "./price-table.js";
