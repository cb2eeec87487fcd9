// Every model adapter, as a browser app would import them: the bundle must hold no node: module.
import { AnthropicAdapter } from "glove-core/models/anthropic";
import { BedrockAdapter } from "glove-core/models/bedrock";
import { MiMoAdapter } from "glove-core/models/mimo";
import { OpenAICompatAdapter } from "glove-core/models/openai-compat";
import { createAdapter } from "glove-core/models/providers";
import { createRelayModel } from "glove-core/models/relay";

export const adapters = [
  AnthropicAdapter,
  BedrockAdapter,
  MiMoAdapter,
  OpenAICompatAdapter,
  createAdapter,
  createRelayModel,
];
