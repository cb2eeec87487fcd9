/** Public entry `glove-core/models/openai-compat`: the OpenAI-compatible chat completions adapter. */
export * from "./openai-compat/index.js";
