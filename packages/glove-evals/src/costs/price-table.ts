// The price table lives in glove-core (glove-core/prices), shared with Glove Studio's waterfall.
export { costOf, DEFAULT_PRICES, priceOf, withPrices } from "glove-core/prices";
export type { ModelPrice, ModelUsage, PriceTable } from "glove-core/prices";
