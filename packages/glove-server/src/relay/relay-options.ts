import { ConfigurationError, type CreateAdapterOptions, type ModelAdapter } from "glove-core";
import { hostPolicy, type HostAllowed } from "../security/host-check.js";
import { createRedactor, redactingLog, relaySecrets, type Redactor } from "./redact.js";

/** Who is asking; `id` keys the rate and concurrency limits. */
export interface RelayPrincipal {
  id: string;
}

/** Checks a request's credentials (cookie, bearer token…); null or undefined answers 401. */
export type RelayAuthenticate = (
  request: Request,
) => RelayPrincipal | null | undefined | Promise<RelayPrincipal | null | undefined>;

/**
 * Builds the upstream adapter for one request. Called for every request with an
 * allowed model and the capped max tokens; cache inside it if building is costly.
 */
export type RelayProviderFactory = (
  model: string,
  options: { maxTokens: number },
) => ModelAdapter | Promise<ModelAdapter>;

/** createAdapter options the relay passes through for a named provider. */
export type RelayAdapterOptions = Omit<CreateAdapterOptions, "provider" | "model" | "apiKey" | "baseURL" | "maxTokens">;

/** Caps the relay enforces per request and per caller, so a browser cannot overspend your key. */
export interface RelayLimits {
  /** Cap on output tokens (default 4096): a larger requested maxTokens is lowered to it, no request is refused for it. */
  maxTokens?: number;
  /** Largest request body in bytes (default 1 MiB); larger answers 413. */
  bodyBytes?: number;
  /** Most messages in one request (default 1000); more answers 413. */
  maxMessages?: number;
  /** Most tools in one request (default 128); more answers 413. */
  maxTools?: number;
  /** Requests per minute per principal (default 60, bursts up to that); more answers 429 with retry-after. */
  requestsPerMinute?: number;
  /** Streams open at once per principal (default 4); more answers 429. */
  concurrentPerPrincipal?: number;
}

/** Options of `createModelRelay`: who may call it, which provider and models, and the limits. */
export interface ModelRelayOptions {
  /** Required: the relay is never open to anonymous callers. */
  authenticate: RelayAuthenticate;
  /** A createAdapter provider name ("openai", "anthropic"…), or a function building the adapter per request. */
  provider: CreateAdapterOptions["provider"] | RelayProviderFactory;
  /** For a named provider (default: its environment variable). */
  apiKey?: string;
  /** For a named provider. */
  baseURL?: string;
  /** Other createAdapter options for a named provider (timeout, maxRetries, headers, fetch…). */
  adapterOptions?: RelayAdapterOptions;
  /**
   * Host names the relay answers to (any port), as `createGloveServer`'s `allowedHosts`: other
   * names get 421 before authentication, which stops DNS rebinding. Always allowed: `localhost`
   * and IP addresses. `["*"]` allows any name.
   */
  allowedHosts?: string[];
  /** Required allow-list of model names; the first is the default. Any other model answers 403. */
  models: readonly string[];
  limits?: RelayLimits;
  /** Interval of SSE comment lines that keep idle proxies from closing a slow stream (ms, default 15 000, 0: none). */
  keepAliveMs?: number;
  /**
   * Where upstream failures and unexpected errors are reported (default console.error), with
   * secrets redacted (API keys, bearer tokens, AWS key ids, the server's own keys). Never sent to clients.
   */
  log?: (message: string, error: unknown) => void;
  /**
   * More secret values to replace with "[redacted]" in the log, e.g. the key a `provider` function
   * uses (the relay cannot see it). The `apiKey` option, or the provider's key variable, is always included.
   */
  redact?: readonly string[];
}

/** The options with every default applied. */
export interface ResolvedRelayOptions {
  authenticate: RelayAuthenticate;
  hostAllowed: HostAllowed;
  models: ReadonlySet<string>;
  defaultModel: string;
  limits: Required<RelayLimits>;
  keepAliveMs: number;
  /** The app's log, wrapped so that everything the relay logs is redacted. */
  log: (message: string, error: unknown) => void;
  /** Replaces the server's secrets (and well-known credential shapes) in text. */
  redact: Redactor;
}

/** The limits a relay applies where `limits` leaves one unset. */
export const RELAY_DEFAULT_LIMITS: Readonly<Required<RelayLimits>> = {
  maxTokens: 4096,
  bodyBytes: 1024 * 1024,
  maxMessages: 1000,
  maxTools: 128,
  requestsPerMinute: 60,
  concurrentPerPrincipal: 4,
};

/** Checks the options, failing at creation (not on the first request) with what to fix. */
export function resolveRelayOptions(options: ModelRelayOptions): ResolvedRelayOptions {
  if (!options || typeof options.authenticate !== "function") {
    throw new ConfigurationError(
      "createModelRelay() needs { authenticate(request) }: return the caller's { id } or null. A relay without authentication would let anyone spend your API key.",
    );
  }
  if (typeof options.provider !== "string" && typeof options.provider !== "function") {
    throw new ConfigurationError(
      'createModelRelay() needs { provider }: a createAdapter provider name such as "openai", or (model) => ModelAdapter.',
    );
  }
  const models = options.models;
  if (!Array.isArray(models) || models.length === 0 || !models.every((m) => typeof m === "string" && m.trim() !== "")) {
    throw new ConfigurationError(
      'createModelRelay() needs { models }: a non-empty list of model names the browser may use, e.g. ["gpt-4.1-mini"]; the first is the default.',
    );
  }
  const limits = { ...RELAY_DEFAULT_LIMITS };
  for (const [key, value] of Object.entries(options.limits ?? {}) as Array<[keyof RelayLimits, unknown]>) {
    if (value === undefined) continue;
    if (!(key in limits))
      throw new ConfigurationError(
        `createModelRelay(): unknown limit "${key}". Known: ${Object.keys(limits).join(", ")}.`,
      );
    if (typeof value !== "number" || !Number.isInteger(value) || value < 1) {
      throw new ConfigurationError(
        `createModelRelay(): limits.${key} must be a positive integer, got ${String(value)}.`,
      );
    }
    limits[key] = value;
  }
  const keepAliveMs = options.keepAliveMs ?? 15_000;
  if (!Number.isFinite(keepAliveMs) || keepAliveMs < 0) {
    throw new ConfigurationError(`createModelRelay(): keepAliveMs must be 0 or more, got ${String(keepAliveMs)}.`);
  }
  if (
    options.redact !== undefined &&
    !(Array.isArray(options.redact) && options.redact.every((s) => typeof s === "string"))
  ) {
    throw new ConfigurationError(
      "createModelRelay(): redact must be an array of strings (secret values to keep out of the log).",
    );
  }
  const redact = createRedactor(relaySecrets(options));
  return {
    authenticate: options.authenticate,
    hostAllowed: hostPolicy(options.allowedHosts, [], "createModelRelay()"),
    models: new Set(models),
    defaultModel: models[0]!,
    limits,
    keepAliveMs,
    log: redactingLog(options.log ?? ((message, error) => console.error(message, error)), redact),
    redact,
  };
}
