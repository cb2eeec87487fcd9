export { ProviderError } from "../../errors.js";
export { AnthropicAdapter } from "./adapter.js";
export { toAnthropicBlock } from "./content-blocks.js";
export type { AnthropicAdapterOptions, AnthropicThinking, AnthropicUsage } from "./options.js";
export { thinkingConfig, type ThinkingOptions } from "./thinking.js";
