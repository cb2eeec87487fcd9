export { ProviderError } from "../../errors.js";
export { AnthropicAdapter } from "./adapter.js";
export { toAnthropicBlock } from "./content-blocks.js";
export type { AnthropicAdapterOptions, AnthropicUsage } from "./options.js";
