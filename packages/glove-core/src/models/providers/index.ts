export { ProviderError } from "../../errors.js";
export type { OpenAICompatReasoningOptions, ReasoningEffort } from "../openai-compat.js";
export { createAdapter, type CreateAdapterOptions } from "./create-adapter.js";
export { getAvailableProviders, getProvider, type AvailableProvider } from "./lookup.js";
export { PROVIDERS, type ProviderConfig, type ProviderId } from "./table.js";
