/** A provider `createAdapter` knows by name. */
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

/** What Glove knows about a provider: endpoint, key variable, default model and wire format. */
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

/** A local OpenAI-compatible server: no key, no default model (pass the one the server has loaded). */
function localServer(id: ProviderId, name: string, baseURL: string): ProviderConfig {
  return {
    id,
    name,
    baseURL,
    envVar: null,
    defaultModel: null,
    models: [],
    format: "openai",
    defaultMaxTokens: 4096,
    requiresApiKey: false,
  };
}

/** Every built-in provider's config, by id. */
export const PROVIDERS: Readonly<Record<ProviderId, Readonly<ProviderConfig>>> = {
  openai: {
    id: "openai",
    name: "OpenAI",
    baseURL: "https://api.openai.com/v1",
    envVar: "OPENAI_API_KEY",
    defaultModel: "gpt-4.1",
    models: [
      "gpt-4.1",
      "gpt-4.1-mini",
      "gpt-4.1-nano",
      "gpt-4o",
      "gpt-4o-mini",
      "o3",
      "o4-mini",
      "gpt-5",
      "gpt-5-mini",
    ],
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
    models: [
      "claude-sonnet-4-20250514",
      "claude-opus-4-20250514",
      "claude-3-7-sonnet-20250219",
      "claude-3-5-haiku-20241022",
    ],
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
    models: [
      "anthropic/claude-sonnet-4",
      "openai/gpt-4.1",
      "google/gemini-2.5-flash",
      "deepseek/deepseek-chat",
      "meta-llama/llama-3.3-70b-instruct",
    ],
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
  ollama: localServer("ollama", "Ollama (local)", "http://localhost:11434/v1"),
  lmstudio: localServer("lmstudio", "LM Studio (local)", "http://localhost:1234/v1"),
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
