import type { TransportOptions } from "./transport.js";

/** Per-attempt timeout every adapter uses unless told otherwise (ms). */
export const DEFAULT_TIMEOUT_MS = 600_000;

/** Options every HTTP model adapter takes. */
export interface HttpAdapterOptions {
  model: string;
  maxTokens?: number;
  /** Stream the answer (default true). */
  stream?: boolean;
  /** Per-attempt timeout in ms (default 600 000). */
  timeout?: number;
  /** Used when a request carries no systemPrompt. */
  systemPrompt?: string;
  /** Extra request headers. */
  headers?: Record<string, string>;
  maxRetries?: number;
  retryBaseDelayMs?: number;
  maxRetryDelayMs?: number;
  /** fetch to send through (default: node:http in Node unless fetch is configured, else globalThis.fetch; see TransportOptions). */
  fetch?: typeof fetch;
}

/** The transport settings of an adapter: only the options actually given, so transport defaults apply. */
export function transportOptions(provider: string, options: HttpAdapterOptions): TransportOptions {
  return {
    provider,
    timeoutMs: options.timeout ?? DEFAULT_TIMEOUT_MS,
    ...(options.maxRetries !== undefined ? { maxRetries: options.maxRetries } : {}),
    ...(options.retryBaseDelayMs !== undefined ? { retryBaseDelayMs: options.retryBaseDelayMs } : {}),
    ...(options.maxRetryDelayMs !== undefined ? { maxRetryDelayMs: options.maxRetryDelayMs } : {}),
    ...(options.fetch ? { fetch: options.fetch } : {}),
  };
}

/** A base URL without trailing slashes, so a path can be appended. */
export function trimBaseURL(url: string): string {
  return url.replace(/\/+$/, "");
}
