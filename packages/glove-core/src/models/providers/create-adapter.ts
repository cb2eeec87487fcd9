import { ConfigurationError } from "../../errors.js";
import type { ModelAdapter } from "../../types/index.js";
import { checkThinking, thinkingConfig, type ThinkingOptions } from "../anthropic/thinking.js";
import type { OpenAICompatReasoningOptions, ReasoningEffort } from "../openai-compat.js";
import { DEFAULT_TIMEOUT_MS } from "../shared/adapter-options.js";
import { awsEnvCredentials, awsRegion, readEnv } from "../shared/env.js";
import { LazyAdapter } from "./lazy-adapter.js";
import { getProvider } from "./lookup.js";
import { PROVIDERS, type ProviderId } from "./table.js";

/** Options of `createAdapter`: the provider and model, with defaults taken from the environment. */
export interface CreateAdapterOptions {
  provider: ProviderId | (string & {});
  model?: string | undefined;
  /** Defaults to the provider's environment variable (for bedrock: the access key id). */
  apiKey?: string | undefined;
  maxTokens?: number | undefined;
  /** Default true. */
  stream?: boolean | undefined;
  baseURL?: string | undefined;
  /** Per-attempt timeout in ms. Default 600 000. */
  timeout?: number | undefined;
  /** OpenAI-compatible providers only. */
  reasoning?: boolean | OpenAICompatReasoningOptions | undefined;
  reasoningEffort?: ReasoningEffort | undefined;
  includeReasoningInText?: boolean | undefined;
  /**
   * Anthropic and Bedrock (Claude): extended thinking. `true` thinks with half of maxTokens as
   * budget; `{ budgetTokens, interleaved, adaptive }` to choose. Signed thinking is kept on the
   * message and sent back, so tool loops work with thinking on.
   */
  thinking?: boolean | ThinkingOptions | undefined;
  /**
   * Anthropic: how `PromptRequest.output` is asked for — "native" JSON schema (default; recent
   * models) or "tool", a forced answer tool for older models.
   */
  structuredOutput?: "native" | "tool" | undefined;
  /** Retries for 429/529/5xx/network failures (default 2), waiting what retry-after says. */
  maxRetries?: number | undefined;
  /** Extra request headers. */
  headers?: Record<string, string> | undefined;
  /** Bedrock: region (default AWS_REGION, AWS_DEFAULT_REGION, then us-east-1). */
  region?: string | undefined;
  /** fetch to send through (default: node:http in Node unless fetch is configured, else globalThis.fetch; see TransportOptions). */
  fetch?: typeof fetch | undefined;
}

/**
 * `<PROVIDER>_BASE_URL` next to the provider's `<PROVIDER>_API_KEY` (ANTHROPIC_BASE_URL,
 * OPENAI_BASE_URL…, the names the providers' own SDKs read): a proxy or gateway without code changes.
 */
function baseUrlFromEnv(keyVar: string | null): string | undefined {
  return keyVar?.endsWith("_API_KEY") ? readEnv(keyVar.replace(/_API_KEY$/, "_BASE_URL")) : undefined;
}

/**
 * A ModelAdapter for `opts.provider`. Checks the key and model now (clear errors
 * naming the env var / option), loads the adapter module on the first prompt. The base URL is
 * `opts.baseURL`, else `<PROVIDER>_BASE_URL` from the environment, else the provider's own.
 */
export function createAdapter(opts: CreateAdapterOptions): ModelAdapter {
  if (!opts || typeof opts.provider !== "string") {
    throw new ConfigurationError(`createAdapter() needs { provider }: one of ${Object.keys(PROVIDERS).join(", ")}.`);
  }
  const p = getProvider(opts.provider.trim().toLowerCase());
  const model = opts.model?.trim() || p.defaultModel;
  if (!model) {
    throw new ConfigurationError(
      `Provider "${p.id}" has no default model: pass createAdapter({ provider: "${p.id}", model: "<name>" }) with a model your ${p.name} server has loaded.`,
    );
  }
  const maxTokens = opts.maxTokens ?? p.defaultMaxTokens;
  const timeout = opts.timeout ?? DEFAULT_TIMEOUT_MS;
  const common = {
    model,
    maxTokens,
    stream: opts.stream ?? true,
    timeout,
    ...(opts.maxRetries !== undefined ? { maxRetries: opts.maxRetries } : {}),
    ...(opts.headers ? { headers: opts.headers } : {}),
    ...(opts.fetch ? { fetch: opts.fetch } : {}),
  };
  const name = `${p.id}:${model}`;
  const thinking =
    opts.thinking === undefined || opts.thinking === false ? undefined : thinkingConfig(opts.thinking, maxTokens);
  const interleaved = typeof opts.thinking === "object" && opts.thinking.interleaved === true;
  const thinkingOptions = thinking ? { thinking, ...(interleaved ? { interleavedThinking: true } : {}) } : {};
  if (thinking) {
    if (p.format === "openai") {
      throw new ConfigurationError(
        `createAdapter: the thinking option is for anthropic and bedrock; provider "${p.id}" takes reasoning / reasoningEffort instead.`,
      );
    }
    checkThinking(thinking, maxTokens, interleaved, `createAdapter({ provider: "${p.id}" })`);
  }

  if (p.format === "bedrock") {
    const region = awsRegion(opts.region);
    const credentials = awsEnvCredentials(opts.apiKey ?? readEnv("AWS_ACCESS_KEY_ID"));
    const bearerToken = readEnv("AWS_BEARER_TOKEN_BEDROCK");
    if (!credentials && !bearerToken) {
      throw new ConfigurationError(
        'Provider "bedrock" needs AWS credentials: set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY (and AWS_SESSION_TOKEN for temporary credentials), or AWS_BEARER_TOKEN_BEDROCK.',
      );
    }
    return new LazyAdapter(name, true, async () => {
      const { BedrockAdapter } = await import("../bedrock.js");
      return new BedrockAdapter({
        ...common,
        ...thinkingOptions,
        region,
        ...(opts.baseURL ? { baseURL: opts.baseURL } : {}),
        credentials,
        ...(bearerToken && !credentials ? { bearerToken } : {}),
      });
    });
  }

  const apiKey = opts.apiKey ?? (p.envVar ? readEnv(p.envVar) : undefined);
  if (p.requiresApiKey && !apiKey) {
    throw new ConfigurationError(
      `Provider "${p.id}" needs an API key: set ${p.envVar} in the environment or pass createAdapter({ provider: "${p.id}", apiKey }).`,
    );
  }
  const baseURL = opts.baseURL ?? baseUrlFromEnv(p.envVar) ?? p.baseURL;

  if (p.format === "anthropic") {
    return new LazyAdapter(name, true, async () => {
      const { AnthropicAdapter } = await import("../anthropic.js");
      return new AnthropicAdapter({
        ...common,
        ...thinkingOptions,
        baseURL,
        ...(apiKey ? { apiKey } : {}),
        ...(opts.structuredOutput ? { structuredOutput: opts.structuredOutput } : {}),
      });
    });
  }
  if (p.id === "mimo") {
    return new LazyAdapter(name, true, async () => {
      const { MiMoAdapter } = await import("../mimo.js");
      return new MiMoAdapter({
        ...common,
        baseURL,
        ...(apiKey ? { apiKey } : {}),
        ...(opts.reasoningEffort ? { reasoningEffort: opts.reasoningEffort } : {}),
        ...(opts.includeReasoningInText !== undefined ? { includeReasoningInText: opts.includeReasoningInText } : {}),
      });
    });
  }
  return new LazyAdapter(name, true, async () => {
    const { OpenAICompatAdapter } = await import("../openai-compat.js");
    return new OpenAICompatAdapter({
      ...common,
      provider: p.id,
      baseURL,
      ...(apiKey ? { apiKey } : {}),
      ...(opts.reasoning !== undefined ? { reasoning: opts.reasoning } : {}),
      ...(opts.reasoningEffort ? { reasoningEffort: opts.reasoningEffort } : {}),
      ...(opts.includeReasoningInText !== undefined ? { includeReasoningInText: opts.includeReasoningInText } : {}),
    });
  });
}
