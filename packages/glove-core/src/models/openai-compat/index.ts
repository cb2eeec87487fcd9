export { ProviderError } from "../../errors.js";
export { OpenAICompatAdapter } from "./adapter.js";
export { toChatPart } from "./content-parts.js";
export type { OpenAICompatAdapterOptions, OpenAICompatReasoningOptions, ReasoningEffort } from "./options.js";
