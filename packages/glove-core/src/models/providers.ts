/**
 * `glove-core/models/providers`: the provider table and `createAdapter`.
 * Adapters are loaded lazily (dynamic import on the first prompt), so importing
 * this module pulls in no adapter code and no Node module.
 */
import { ConfigurationError } from "../errors.js";
import type { ModelAdapter, ModelPromptResult, NotifySubscribersFunction, PromptRequest } from "../types/index.js";
import { readEnv } from "./shared/messages.js";
import type { OpenAICompatReasoningOptions, ReasoningEffort } from "./openai-compat.js";

export { ProviderError } from "../errors.js";
export type { OpenAICompatReasoningOptions, ReasoningEffort } from "./openai-compat.js";

export type ProviderId =
  | "openai"
  | "anthropic"
  | "openrouter"
  | "gemini"
  | "minimax"
  | "kimi"
  | "glm"
  | "mimo"
  | "ollama"
  | "lmstudio"
  | "bedrock";

export interface ProviderConfig {
  id: ProviderId;
  name: string;
  /** Default endpoint base. Bedrock's contains `{region}`. */
  baseURL: string;
  /** Environment variable holding the API key; null for local providers. */
  envVar: string | null;
  /** null for local providers: pass `model`. */
  defaultModel: string | null;
  models: string[];
  format: "openai" | "anthropic" | "bedrock";
  defaultMaxTokens: number;
  requiresApiKey: boolean;
}

export const PROVIDERS: Readonly<Record<ProviderId, Readonly<ProviderConfig>>> = {
  openai: {
    id: "openai",
    name: "OpenAI",
    baseURL: "https://api.openai.com/v1",
    envVar: "OPENAI_API_KEY",
    defaultModel: "gpt-4.1",
    models: ["gpt-4.1", "gpt-4.1-mini", "gpt-4.1-nano", "gpt-4o", "gpt-4o-mini", "o3", "o4-mini", "gpt-5", "gpt-5-mini"],
    format: "openai",
    defaultMaxTokens: 16384,
    requiresApiKey: true,
  },
  anthropic: {
    id: "anthropic",
    name: "Anthropic",
    baseURL: "https://api.anthropic.com",
    envVar: "ANTHROPIC_API_KEY",
    defaultModel: "claude-sonnet-4-20250514",
    models: ["claude-sonnet-4-20250514", "claude-opus-4-20250514", "claude-3-7-sonnet-20250219", "claude-3-5-haiku-20241022"],
    format: "anthropic",
    defaultMaxTokens: 8192,
    requiresApiKey: true,
  },
  openrouter: {
    id: "openrouter",
    name: "OpenRouter",
    baseURL: "https://openrouter.ai/api/v1",
    envVar: "OPENROUTER_API_KEY",
    defaultModel: "anthropic/claude-sonnet-4",
    models: ["anthropic/claude-sonnet-4", "openai/gpt-4.1", "google/gemini-2.5-flash", "deepseek/deepseek-chat", "meta-llama/llama-3.3-70b-instruct"],
    format: "openai",
    defaultMaxTokens: 8192,
    requiresApiKey: true,
  },
  gemini: {
    id: "gemini",
    name: "Google Gemini",
    baseURL: "https://generativelanguage.googleapis.com/v1beta/openai",
    envVar: "GEMINI_API_KEY",
    defaultModel: "gemini-2.5-flash",
    models: ["gemini-2.5-flash", "gemini-2.5-pro", "gemini-2.5-flash-lite", "gemini-2.0-flash"],
    format: "openai",
    defaultMaxTokens: 8192,
    requiresApiKey: true,
  },
  minimax: {
    id: "minimax",
    name: "MiniMax",
    baseURL: "https://api.minimax.io/v1",
    envVar: "MINIMAX_API_KEY",
    defaultModel: "MiniMax-M2.5",
    models: ["MiniMax-M2.5", "MiniMax-M2"],
    format: "openai",
    defaultMaxTokens: 8192,
    requiresApiKey: true,
  },
  kimi: {
    id: "kimi",
    name: "Moonshot Kimi",
    baseURL: "https://api.moonshot.ai/v1",
    envVar: "MOONSHOT_API_KEY",
    defaultModel: "kimi-k2.5",
    models: ["kimi-k2.5", "kimi-k2-0905-preview", "kimi-k2-turbo-preview"],
    format: "openai",
    defaultMaxTokens: 8192,
    requiresApiKey: true,
  },
  glm: {
    id: "glm",
    name: "Zhipu GLM",
    baseURL: "https://open.bigmodel.cn/api/paas/v4",
    envVar: "ZHIPUAI_API_KEY",
    defaultModel: "glm-4-plus",
    models: ["glm-4-plus", "glm-4.6", "glm-4.5", "glm-4.5-air"],
    format: "openai",
    defaultMaxTokens: 8192,
    requiresApiKey: true,
  },
  mimo: {
    id: "mimo",
    name: "Xiaomi MiMo",
    baseURL: "https://api.xiaomimimo.com/v1",
    envVar: "MIMO_API_KEY",
    defaultModel: "mimo-v2.5",
    models: ["mimo-v2.5", "mimo-v2.5-pro", "mimo-v2-flash"],
    format: "openai",
    defaultMaxTokens: 8192,
    requiresApiKey: true,
  },
  ollama: {
    id: "ollama",
    name: "Ollama (local)",
    baseURL: "http://localhost:11434/v1",
    envVar: null,
    defaultModel: null,
    models: [],
    format: "openai",
    defaultMaxTokens: 4096,
    requiresApiKey: false,
  },
  lmstudio: {
    id: "lmstudio",
    name: "LM Studio (local)",
    baseURL: "http://localhost:1234/v1",
    envVar: null,
    defaultModel: null,
    models: [],
    format: "openai",
    defaultMaxTokens: 4096,
    requiresApiKey: false,
  },
  bedrock: {
    id: "bedrock",
    name: "Amazon Bedrock",
    baseURL: "https://bedrock-runtime.{region}.amazonaws.com",
    envVar: "AWS_ACCESS_KEY_ID",
    defaultModel: "anthropic.claude-3-5-sonnet-20241022-v2:0",
    models: [
      "anthropic.claude-3-5-sonnet-20241022-v2:0",
      "anthropic.claude-3-5-haiku-20241022-v1:0",
      "us.anthropic.claude-sonnet-4-20250514-v1:0",
      "amazon.nova-pro-v1:0",
      "meta.llama3-3-70b-instruct-v1:0",
    ],
    format: "bedrock",
    defaultMaxTokens: 4096,
    requiresApiKey: true,
  },
};

export interface CreateAdapterOptions {
  provider: ProviderId | (string & {});
  model?: string;
  /** Defaults to the provider's environment variable (for bedrock: the access key id). */
  apiKey?: string;
  maxTokens?: number;
  /** Default true. */
  stream?: boolean;
  baseURL?: string;
  /** Per-attempt timeout in ms. Default 600 000. */
  timeout?: number;
  /** OpenAI-compatible providers only. */
  reasoning?: boolean | OpenAICompatReasoningOptions;
  reasoningEffort?: ReasoningEffort;
  includeReasoningInText?: boolean;
  /** Retries for 429/5xx/network failures (default 2). */
  maxRetries?: number;
  /** Extra request headers. */
  headers?: Record<string, string>;
  /** Bedrock: region (default AWS_REGION, AWS_DEFAULT_REGION, then us-east-1). */
  region?: string;
  /** fetch to use (default globalThis.fetch). */
  fetch?: typeof fetch;
}

export type AvailableProvider = ProviderConfig & { available: boolean };

function isProviderId(id: string): id is ProviderId {
  return Object.hasOwn(PROVIDERS, id);
}

/** The provider's config; throws ConfigurationError naming the known ids. */
export function getProvider(id: string): Readonly<ProviderConfig> {
  if (!isProviderId(id)) {
    throw new ConfigurationError(`Unknown model provider "${id}". Known providers: ${Object.keys(PROVIDERS).join(", ")}.`);
  }
  return PROVIDERS[id];
}

/**
 * Every provider with `available` telling whether it can be used as configured
 * now: its key's environment variable is set (bedrock: both AWS key variables
 * or AWS_BEARER_TOKEN_BEDROCK); local providers need no key and are always listed
 * as available (whether the server runs is only known on the first request).
 */
export function getAvailableProviders(): AvailableProvider[] {
  return Object.values(PROVIDERS).map((p) => ({ ...p, models: [...p.models], available: hasCredentials(p) }));
}

function hasCredentials(p: ProviderConfig): boolean {
  if (!p.requiresApiKey || !p.envVar) return true;
  if (p.id === "bedrock") {
    return Boolean((readEnv("AWS_ACCESS_KEY_ID") && readEnv("AWS_SECRET_ACCESS_KEY")) || readEnv("AWS_BEARER_TOKEN_BEDROCK"));
  }
  return readEnv(p.envVar) !== undefined;
}

/**
 * A ModelAdapter for `opts.provider`. Checks the key and model now (clear errors
 * naming the env var / option), loads the adapter module on the first prompt.
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
  const timeout = opts.timeout ?? 600_000;
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

  if (p.format === "bedrock") {
    const region = opts.region ?? readEnv("AWS_REGION") ?? readEnv("AWS_DEFAULT_REGION") ?? "us-east-1";
    const accessKeyId = opts.apiKey ?? readEnv("AWS_ACCESS_KEY_ID");
    const secretAccessKey = readEnv("AWS_SECRET_ACCESS_KEY");
    const bearerToken = readEnv("AWS_BEARER_TOKEN_BEDROCK");
    if (!(accessKeyId && secretAccessKey) && !bearerToken) {
      throw new ConfigurationError(
        "Provider \"bedrock\" needs AWS credentials: set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY (and AWS_SESSION_TOKEN for temporary credentials), or AWS_BEARER_TOKEN_BEDROCK.",
      );
    }
    const sessionToken = readEnv("AWS_SESSION_TOKEN");
    return new LazyAdapter(name, async () => {
      const { BedrockAdapter } = await import("./bedrock.js");
      return new BedrockAdapter({
        ...common,
        region,
        ...(opts.baseURL ? { baseURL: opts.baseURL } : {}),
        credentials:
          accessKeyId && secretAccessKey
            ? { accessKeyId, secretAccessKey, ...(sessionToken ? { sessionToken } : {}) }
            : undefined,
        ...(bearerToken && !(accessKeyId && secretAccessKey) ? { bearerToken } : {}),
      });
    });
  }

  const apiKey = opts.apiKey ?? (p.envVar ? readEnv(p.envVar) : undefined);
  if (p.requiresApiKey && !apiKey) {
    throw new ConfigurationError(
      `Provider "${p.id}" needs an API key: set ${p.envVar} in the environment or pass createAdapter({ provider: "${p.id}", apiKey }).`,
    );
  }
  const baseURL = opts.baseURL ?? p.baseURL;

  if (p.format === "anthropic") {
    return new LazyAdapter(name, async () => {
      const { AnthropicAdapter } = await import("./anthropic.js");
      return new AnthropicAdapter({ ...common, baseURL, ...(apiKey ? { apiKey } : {}) });
    });
  }
  if (p.id === "mimo") {
    return new LazyAdapter(name, async () => {
      const { MiMoAdapter } = await import("./mimo.js");
      return new MiMoAdapter({
        ...common,
        baseURL,
        ...(apiKey ? { apiKey } : {}),
        ...(opts.reasoningEffort ? { reasoningEffort: opts.reasoningEffort } : {}),
        ...(opts.includeReasoningInText !== undefined ? { includeReasoningInText: opts.includeReasoningInText } : {}),
      });
    });
  }
  return new LazyAdapter(name, async () => {
    const { OpenAICompatAdapter } = await import("./openai-compat.js");
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

/** Loads the real adapter on first use; forwards everything to it. */
class LazyAdapter implements ModelAdapter {
  private inner: ModelAdapter | undefined;
  private loading: Promise<ModelAdapter> | undefined;
  private systemPrompt: string | undefined;

  constructor(
    readonly name: string,
    private readonly load: () => Promise<ModelAdapter>,
  ) {}

  setSystemPrompt(systemPrompt: string): void {
    this.systemPrompt = systemPrompt;
    this.inner?.setSystemPrompt(systemPrompt);
  }

  /** The loaded adapter (loads it if needed). */
  async adapter(): Promise<ModelAdapter> {
    if (this.inner) return this.inner;
    this.loading ??= this.load().then((adapter) => {
      if (this.systemPrompt !== undefined) adapter.setSystemPrompt(this.systemPrompt);
      this.inner = adapter;
      return adapter;
    });
    return this.loading;
  }

  async prompt(request: PromptRequest, notify: NotifySubscribersFunction, signal?: AbortSignal): Promise<ModelPromptResult> {
    const adapter = this.inner ?? (await this.adapter());
    return adapter.prompt(request, notify, signal);
  }
}
