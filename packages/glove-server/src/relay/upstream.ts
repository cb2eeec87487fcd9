import { createAdapter, GloveError, type ModelAdapter, type Tool } from "glove-core";
import type { RelayToolSpec } from "glove-core/models/relay";
import type { ModelRelayOptions } from "./relay-options.js";

/** The upstream adapter for one request. */
export type UpstreamFactory = (model: string, maxTokens: number) => Promise<ModelAdapter>;

/** Adapters kept for a named provider, one per (model, max tokens); the oldest goes first. */
const ADAPTER_CACHE_SIZE = 64;

/**
 * Where requests go upstream. For a named provider, createAdapter runs once now,
 * so an unknown provider or a missing API key fails at startup, and adapters are
 * reused across requests (they keep no per-request state: the relay always
 * passes the system prompt in the request and never calls setSystemPrompt).
 */
export function upstreamFactory(options: ModelRelayOptions, defaultModel: string): UpstreamFactory {
  const provider = options.provider;
  if (typeof provider === "function") return async (model, maxTokens) => provider(model, { maxTokens });
  const base = { ...options.adapterOptions, provider, apiKey: options.apiKey, baseURL: options.baseURL };
  createAdapter({ ...base, model: defaultModel });
  const cache = new Map<string, ModelAdapter>();
  return async (model, maxTokens) => {
    const key = `${model}\n${maxTokens}`;
    let adapter = cache.get(key);
    if (!adapter) {
      adapter = createAdapter({ ...base, model, maxTokens });
      if (cache.size >= ADAPTER_CACHE_SIZE) cache.delete(cache.keys().next().value!);
      cache.set(key, adapter);
    }
    return adapter;
  };
}

/**
 * Tools as the upstream adapter needs them: name, description and JSON Schema.
 * The browser runs tools; one reaching `run` here is a bug, so it fails loudly.
 */
export function relayTools(specs: readonly RelayToolSpec[]): Tool<unknown>[] {
  return specs.map((spec) => ({
    name: spec.name,
    description: spec.description,
    jsonSchema: spec.parameters,
    run: async () => {
      throw new GloveError(`The model relay never runs tools ("${spec.name}" runs in the client).`, {
        code: "GLOVE_RELAY_TOOL",
      });
    },
  }));
}
