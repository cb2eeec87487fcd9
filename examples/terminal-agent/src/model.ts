import type { ModelAdapter } from "glove-core";

/** Providers the agent knows how to recognise, and the env var holding each one's key. */
export const PROVIDER_KEYS = {
  anthropic: "ANTHROPIC_API_KEY",
  openai: "OPENAI_API_KEY",
  gemini: "GEMINI_API_KEY",
  openrouter: "OPENROUTER_API_KEY",
} as const;

export type ProviderName = keyof typeof PROVIDER_KEYS;

/**
 * Builds a real ModelAdapter for a provider. Empty until the model adapters
 * land (issue #4); they plug in here, e.g.
 * `anthropic: (env) => createAdapter({ provider: "anthropic", model: env.GLOVE_MODEL })`.
 */
export const ADAPTER_FACTORIES: Partial<Record<ProviderName, (env: NodeJS.ProcessEnv) => ModelAdapter>> = {};

export type ModelChoice =
  | { kind: "live"; provider: ProviderName; model: ModelAdapter }
  | { kind: "offline"; reason: string };

type Env = NodeJS.ProcessEnv;

function isProvider(name: string): name is ProviderName {
  return Object.hasOwn(PROVIDER_KEYS, name);
}

/** The provider asked for: GLOVE_PROVIDER first, else the first one whose API key is set. */
export function detectProvider(env: Env): { provider?: ProviderName; problem?: string } {
  const requested = env.GLOVE_PROVIDER?.trim().toLowerCase();
  if (requested) {
    if (isProvider(requested)) return { provider: requested };
    return { problem: `GLOVE_PROVIDER="${requested}" is not one of ${Object.keys(PROVIDER_KEYS).join(", ")}` };
  }
  for (const [provider, key] of Object.entries(PROVIDER_KEYS)) {
    if (env[key]?.trim() && isProvider(provider)) return { provider };
  }
  return {};
}

/**
 * Picks the model: a real provider when one is configured and its adapter
 * exists, otherwise the offline walkthrough with a one-line reason.
 */
export function selectModel(env: Env = process.env): ModelChoice {
  const { provider, problem } = detectProvider(env);
  const keys = Object.values(PROVIDER_KEYS);
  if (problem) return { kind: "offline", reason: `${problem}; playing the offline walkthrough.` };
  if (!provider) {
    return {
      kind: "offline",
      reason: `No model provider configured (set ${keys.slice(0, 2).join(" or ")}, or GLOVE_PROVIDER); playing the offline walkthrough.`,
    };
  }
  const factory = ADAPTER_FACTORIES[provider];
  if (!factory) {
    return {
      kind: "offline",
      reason: `Provider "${provider}" is configured, but glove-core has no model adapters yet; playing the offline walkthrough.`,
    };
  }
  return { kind: "live", provider, model: factory(env) };
}
