import type { RelayErrorPayload } from "glove-core/models/relay";
import { GloveError, ProviderError } from "glove-core";
import { HttpError } from "../errors.js";

/** An HttpError that needs response headers (allow, retry-after). Keeps HttpError's name, so errorResponse renders it. */
export class RelayHttpError extends HttpError {
  readonly headers: Readonly<Record<string, string>>;

  constructor(status: number, code: string, message: string, headers: Record<string, string>) {
    super(status, code, message);
    this.headers = headers;
  }
}

export const methodNotAllowed = () =>
  new RelayHttpError(405, "GLOVE_METHOD_NOT_ALLOWED", "A model relay only answers POST with a JSON body.", { allow: "POST" });

export const unauthorized = () =>
  new HttpError(401, "GLOVE_UNAUTHORIZED", "This model relay needs credentials: sign in, or send what the server's authenticate() accepts.");

export const modelNotAllowed = (model: string, allowed: Iterable<string>) =>
  new HttpError(403, "GLOVE_MODEL_NOT_ALLOWED", `Model "${model.slice(0, 256)}" is not allowed on this relay. Allowed: ${[...allowed].join(", ")}.`);

export const rateLimited = (retryAfterSeconds: number, message: string) =>
  new RelayHttpError(429, "GLOVE_RATE_LIMITED", message, { "retry-after": String(retryAfterSeconds) });

/**
 * What a client is told when the upstream fails mid-stream: the code and a
 * message, never a stack. Upstream credential failures are reported to the log
 * only, since the provider's message may quote part of the server's API key.
 */
export function wireError(error: unknown, log: (message: string, error: unknown) => void): RelayErrorPayload {
  if (ProviderError.isInstance(error)) {
    const credentials = error.status === 401 || error.status === 403;
    if (credentials) log("[glove-server] the model provider refused the relay's credentials", error);
    const payload: RelayErrorPayload = {
      code: error.code,
      message: credentials
        ? `${error.provider} refused the relay's credentials (HTTP ${error.status}); the server log has details.`
        : error.message,
      status: error.status,
      retryable: error.retryable,
    };
    if (!credentials && error.providerCode !== undefined) payload.providerCode = error.providerCode;
    if (error.retryAfterMs !== undefined) payload.retryAfterMs = error.retryAfterMs;
    return payload;
  }
  if (GloveError.isInstance(error)) return { code: error.code, message: error.message };
  log("[glove-server] the model relay's upstream failed", error);
  return { code: "GLOVE_INTERNAL", message: "The model request failed on the server; it was logged." };
}
