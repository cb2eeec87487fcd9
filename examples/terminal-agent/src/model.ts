import type { ModelAdapter } from "glove-core";
import { PROVIDERS, createAdapter, type ProviderId } from "glove-core/models/providers";

/**
 * Providers recognised from an API key in the environment, in the order they are
 * tried, with the variable holding each one's key. Every other provider of the
 * glove-core table (including the local ollama and lmstudio) is chosen with
 * GLOVE_PROVIDER.
 */
export const PROVIDER_KEYS = {
  anthropic: "ANTHROPIC_API_KEY",
  openai: "OPENAI_API_KEY",
  gemini: "GEMINI_API_KEY",
  openrouter: "OPENROUTER_API_KEY",
  minimax: "MINIMAX_API_KEY",
  kimi: "MOONSHOT_API_KEY",
  glm: "ZHIPUAI_API_KEY",
  mimo: "MIMO_API_KEY",
} as const satisfies Partial<Record<ProviderId, string>>;

export type ProviderName = ProviderId;

type Env = NodeJS.ProcessEnv;

/**
 * Builds the ModelAdapter for a provider from the environment: GLOVE_MODEL picks
 * the model (required for ollama / lmstudio), GLOVE_BASE_URL overrides the
 * endpoint (e.g. an ollama on another port).
 */
export function createModel(provider: ProviderName, env: Env): ModelAdapter {
  const model = env.GLOVE_MODEL?.trim();
  const baseURL = env.GLOVE_BASE_URL?.trim();
  const apiKey = PROVIDERS[provider].envVar ? env[PROVIDERS[provider].envVar!]?.trim() : undefined;
  return createAdapter({
    provider,
    ...(model ? { model } : {}),
    ...(baseURL ? { baseURL } : {}),
    ...(apiKey ? { apiKey } : {}),
  });
}

export type ModelChoice =
  { kind: "live"; provider: ProviderName; model: ModelAdapter } | { kind: "offline"; reason: string };

function isProvider(name: string): name is ProviderName {
  return Object.hasOwn(PROVIDERS, name);
}

/** The provider asked for: GLOVE_PROVIDER first, else the first one whose API key is set. */
export function detectProvider(env: Env): { provider?: ProviderName; problem?: string } {
  const requested = env.GLOVE_PROVIDER?.trim().toLowerCase();
  if (requested) {
    if (isProvider(requested)) return { provider: requested };
    return { problem: `GLOVE_PROVIDER="${requested}" is not one of ${Object.keys(PROVIDERS).join(", ")}` };
  }
  for (const [provider, key] of Object.entries(PROVIDER_KEYS)) {
    if (env[key]?.trim() && isProvider(provider)) return { provider };
  }
  if (env.AWS_ACCESS_KEY_ID?.trim() && env.AWS_SECRET_ACCESS_KEY?.trim() && env.GLOVE_MODEL?.trim())
    return { provider: "bedrock" };
  return {};
}

/**
 * Picks the model: a real provider when one is configured, otherwise the
 * offline walkthrough with a one-line reason saying how to configure one.
 */
export function selectModel(env: Env = process.env): ModelChoice {
  const { provider, problem } = detectProvider(env);
  if (problem) return { kind: "offline", reason: `${problem}; playing the offline walkthrough.` };
  if (!provider) {
    return {
      kind: "offline",
      reason:
        "No model provider configured (set ANTHROPIC_API_KEY or OPENAI_API_KEY, or GLOVE_PROVIDER=ollama GLOVE_MODEL=llama3 for a local model); playing the offline walkthrough.",
    };
  }
  try {
    return { kind: "live", provider, model: createModel(provider, env) };
  } catch (error) {
    const message = (error instanceof Error ? error.message : String(error)).replace(/\.$/, "");
    return { kind: "offline", reason: `${message}; playing the offline walkthrough.` };
  }
}
