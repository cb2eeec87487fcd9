import { chooseTransport } from "#http-transport";
import { AbortError, ProviderError, toAbortError } from "../../errors.js";
import { BodyReadError, type HeaderSource, type HttpResponse } from "./http/types.js";

export { BodyReadError } from "./http/types.js";

/** How an adapter talks HTTP: one POST, retried on 429/5xx/network errors. */
export interface TransportOptions {
  /** Provider id, carried by every ProviderError. */
  provider: string;
  /** Total time allowed for one attempt, body included, in ms (default 600 000). */
  timeoutMs?: number;
  /** Retries after the first attempt for retryable failures (default 2). */
  maxRetries?: number;
  /** First backoff delay in ms, doubled each retry, ±25 % jitter (default 500). */
  retryBaseDelayMs?: number;
  /** Longest wait we accept, from retry-after or backoff, in ms (default 60 000). */
  maxRetryDelayMs?: number;
  /**
   * fetch to use. Default: `node:http` in Node (unless `globalThis.fetch` was replaced or an
   * undici global dispatcher is set: then that fetch), `globalThis.fetch` elsewhere.
   */
  fetch?: typeof fetch;
}

export interface PostArgs {
  url: string;
  headers: Record<string, string>;
  body: string;
  signal?: AbortSignal | undefined;
  /**
   * Attempts already spent on this prompt (default 0): a retry after a failure mid-stream
   * continues the count, so `maxRetries` bounds every retry of one prompt.
   */
  firstAttempt?: number;
  /**
   * Told before each wait to retry, with the retry about to be made (1 for the first) and the
   * failure that caused it, so the adapter can tell subscribers.
   */
  onRetry?: ((retry: number, delayMs: number, failure: ProviderError) => Promise<void>) | undefined;
}

/** A successful response and the means to end the attempt (timer, abort wiring). */
export interface OpenResponse {
  response: HttpResponse;
  /** Raises the right error for a failure while reading the body (abort, timeout, cut connection). */
  readFailure(error: unknown): Error;
  /** Clears the timeout and detaches from the caller's signal; call when the body is consumed. */
  close(): void;
  /** The attempt this response answers (0 for the first request). */
  attempt: number;
  /** True when the attempt's own timeout fired (never retried: the caller chose how long to wait). */
  timedOut(): boolean;
}

const DEFAULT_TIMEOUT = 600_000;

/** Statuses worth retrying: request timeout, conflict, rate limit, server errors (Anthropic's 529 overloaded included). */
export function isRetryableStatus(status: number): boolean {
  return status === 408 || status === 409 || status === 429 || status >= 500;
}

/**
 * Whether to retry an error answer: the provider's explicit `x-should-retry` header (Anthropic
 * and OpenAI send it) wins over the status.
 */
export function shouldRetry(status: number, headers: HeaderSource): boolean {
  const hint = headers.get("x-should-retry")?.trim().toLowerCase();
  if (hint === "true") return true;
  if (hint === "false") return false;
  return isRetryableStatus(status);
}

/** The retry settings with their defaults filled in. */
export function retryPolicy(options: TransportOptions): { maxRetries: number; base: number; maxDelay: number } {
  return {
    maxRetries: options.maxRetries ?? 2,
    base: options.retryBaseDelayMs ?? 500,
    maxDelay: options.maxRetryDelayMs ?? 60_000,
  };
}

/**
 * How long to wait before retry number `attempt + 1`: what the provider asked for (retry-after),
 * else exponential backoff. Undefined when the provider asked for longer than `maxRetryDelayMs`
 * (give up now rather than hang).
 */
export function retryDelay(
  options: TransportOptions,
  attempt: number,
  retryAfter: number | undefined,
): number | undefined {
  const { base, maxDelay } = retryPolicy(options);
  const delay = retryAfter ?? backoff(base, attempt, maxDelay);
  return delay > maxDelay ? undefined : delay;
}

/** Parses retry-after-ms / retry-after (seconds or HTTP date) into ms. */
export function retryAfterMs(headers: HeaderSource, now = Date.now()): number | undefined {
  const ms = headers.get("retry-after-ms");
  if (ms !== null && ms.trim() !== "" && Number.isFinite(Number(ms))) return Math.max(0, Number(ms));
  const value = headers.get("retry-after");
  if (value === null || value.trim() === "") return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/** Extracts the provider's own message and code from an error body (OpenAI, Anthropic, AWS shapes). */
export function parseErrorBody(text: string): { message: string; code?: string } {
  try {
    const json = JSON.parse(text) as unknown;
    if (json && typeof json === "object") {
      const j = json as Record<string, unknown>;
      const err = (Array.isArray(j) ? j[0] : (j["error"] ?? j)) as Record<string, unknown> | string | undefined;
      if (typeof err === "string") return { message: err };
      if (err && typeof err === "object") {
        const message = err["message"] ?? err["Message"] ?? j["message"] ?? j["Message"];
        const code = err["type"] ?? err["code"] ?? err["__type"] ?? j["__type"];
        const out: { message: string; code?: string } = {
          message: typeof message === "string" ? message : text.slice(0, 500),
        };
        if (typeof code === "string" || typeof code === "number") out.code = String(code);
        return out;
      }
    }
  } catch {
    // not JSON: use the text itself
  }
  return { message: text.trim().slice(0, 500) || "(empty response body)" };
}

/** Waits `ms`, or throws AbortError as soon as `signal` fires. */
export function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(toAbortError(signal.reason));
    const onAbort = () => {
      clearTimeout(timer);
      reject(toAbortError(signal!.reason));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

class TimeoutSignal extends Error {
  constructor(ms: number) {
    super(`no complete answer within ${ms} ms`);
    this.name = "TimeoutError";
  }
}

/**
 * POSTs `body` and returns the open response once the status is 2xx. Retries
 * 408/409/429/5xx and network failures with exponential backoff, waiting what
 * retry-after says when the provider sends it (and giving up at once when that
 * exceeds `maxRetryDelayMs`). Aborting the caller's signal cancels the request
 * (or the backoff sleep) immediately and throws AbortError.
 */
export async function post(options: TransportOptions, args: PostArgs): Promise<OpenResponse> {
  const send = chooseTransport(options.fetch);
  const { maxRetries, base, maxDelay } = retryPolicy(options);
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT;
  const { signal } = args;

  for (let attempt = args.firstAttempt ?? 0; ; attempt++) {
    if (signal?.aborted) throw toAbortError(signal.reason);
    const controller = new AbortController();
    const onAbort = () => controller.abort(signal!.reason);
    signal?.addEventListener("abort", onAbort, { once: true });
    const timer = setTimeout(() => controller.abort(new TimeoutSignal(timeoutMs)), timeoutMs);
    const close = () => {
      clearTimeout(timer);
      signal?.removeEventListener("abort", onAbort);
    };
    const failure = (error: unknown, midStream: boolean): Error => {
      if (signal?.aborted) return toAbortError(signal.reason);
      if (controller.signal.reason instanceof TimeoutSignal) {
        return new ProviderError({
          provider: options.provider,
          status: 0,
          retryable: true,
          providerMessage: `timed out: ${controller.signal.reason.message}`,
          cause: error,
        });
      }
      if (midStream && !(error instanceof BodyReadError)) {
        // Thrown by the adapter or a subscriber while reading, not by the connection.
        return error instanceof Error ? error : new Error(String(error));
      }
      if (ProviderError.isInstance(error) || error instanceof AbortError) return error;
      const cause = error instanceof BodyReadError ? error.cause : error;
      const detail = cause instanceof Error ? describeNetworkError(cause) : String(cause);
      return new ProviderError({
        provider: options.provider,
        status: 0,
        retryable: true,
        providerMessage: midStream ? `connection lost mid-stream: ${detail}` : `network error: ${detail}`,
        cause,
      });
    };

    let response: HttpResponse;
    try {
      response = await send({ url: args.url, headers: args.headers, body: args.body, signal: controller.signal });
    } catch (error) {
      close();
      const err = failure(error, false);
      if (err instanceof AbortError || !ProviderError.isInstance(err)) throw err;
      // Timeouts are not retried: the caller chose how long to wait.
      const timedOut = controller.signal.reason instanceof TimeoutSignal;
      if (timedOut || attempt >= maxRetries) throw err;
      const wait = backoff(base, attempt, maxDelay);
      await args.onRetry?.(attempt + 1, wait, err);
      await sleep(wait, signal);
      continue;
    }

    if (response.ok) {
      return {
        response,
        close,
        attempt,
        readFailure: (error) => failure(error, true),
        timedOut: () => controller.signal.reason instanceof TimeoutSignal,
      };
    }

    let text = "";
    try {
      text = await response.text();
    } catch (error) {
      close();
      throw failure(error, false);
    }
    close();
    const { message, code } = parseErrorBody(text);
    const wait = retryAfterMs(response.headers);
    const retryable = shouldRetry(response.status, response.headers);
    const error = new ProviderError({
      provider: options.provider,
      status: response.status,
      retryable,
      providerMessage: message,
      ...(code !== undefined ? { providerCode: code } : {}),
      ...(wait !== undefined ? { retryAfterMs: wait } : {}),
    });
    if (!retryable || attempt >= maxRetries) throw error;
    const delay = retryDelay(options, attempt, wait);
    if (delay === undefined) throw error;
    await args.onRetry?.(attempt + 1, delay, error);
    await sleep(delay, signal);
  }
}

function backoff(base: number, attempt: number, cap: number): number {
  const exp = Math.min(cap, base * 2 ** attempt);
  return Math.round(exp * (0.75 + Math.random() * 0.5));
}

function describeNetworkError(error: Error): string {
  const cause = (error as { cause?: unknown }).cause;
  if (cause instanceof Error && cause.message && cause.message !== error.message) {
    return `${error.message} (${cause.message})`;
  }
  return error.message;
}
