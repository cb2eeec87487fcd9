/** Public entry `glove-core/models/anthropic`: the Anthropic Messages API adapter. */
export * from "./anthropic/index.js";
