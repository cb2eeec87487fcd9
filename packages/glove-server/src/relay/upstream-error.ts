/**
 * What a client is told when the upstream model request fails. Provider error
 * text never reaches it: error bodies carry stack traces, internal paths and,
 * when a gateway echoes the request, the server's API key. The client gets the
 * status, `retryable`, `retryAfterMs`, a well-known provider error code, and a
 * message the relay chose by status; the whole error goes to the (redacting) log.
 */
import { GloveError, ProviderError } from "glove-core";
import type { RelayErrorPayload } from "glove-core/models/relay";
import type { Redactor } from "./redact.js";

/**
 * Provider error codes passed on to clients: fixed strings the providers
 * document (OpenAI, Anthropic, Bedrock) or glove-core sets, so they carry nothing of the body.
 * Other codes are only logged.
 */
const KNOWN_PROVIDER_CODES: ReadonlySet<string> = new Set([
  // OpenAI and OpenAI-compatible servers
  "rate_limit_exceeded",
  "insufficient_quota",
  "context_length_exceeded",
  "invalid_request_error",
  "server_error",
  "invalid_api_key",
  "model_not_found",
  "content_filter",
  // Anthropic
  "authentication_error",
  "permission_error",
  "not_found_error",
  "request_too_large",
  "rate_limit_error",
  "api_error",
  "overloaded_error",
  // Bedrock (both spellings: HTTP answers and in-stream exceptions)
  "ThrottlingException",
  "throttlingException",
  "ValidationException",
  "validationException",
  "AccessDeniedException",
  "ResourceNotFoundException",
  "ServiceUnavailableException",
  "serviceUnavailableException",
  "InternalServerException",
  "internalServerException",
  "ModelTimeoutException",
  "modelTimeoutException",
  "ModelNotReadyException",
  "ModelErrorException",
  "modelStreamErrorException",
  "ServiceQuotaExceededException",
  // glove-core's own, for answers of the wrong shape
  "malformed_response",
  "malformed_tool_call",
]);

/** Codes whose meaning is worth a message of its own. */
const CODE_MESSAGES: Readonly<Record<string, string>> = {
  context_length_exceeded: "the conversation is too long for the model: compact it or start a new one",
  insufficient_quota:
    "the server's account with the model provider is out of quota; the server's operator must add credit",
};

export interface WireErrorContext {
  /** The relay's redacting log. */
  log: (message: string, error: unknown) => void;
  redact: Redactor;
}

/** The `error` event for an upstream failure: a status, a stable code and a generic, useful message. */
export function wireError(error: unknown, { log, redact }: WireErrorContext): RelayErrorPayload {
  if (ProviderError.isInstance(error)) {
    log(
      `[glove-server] the model provider failed (${describeStatus(error.status)}); the client got a generic message`,
      error,
    );
    const payload: RelayErrorPayload = {
      code: error.code,
      message: clientMessage(error),
      status: error.status,
      retryable: error.retryable,
    };
    if (error.providerCode !== undefined && KNOWN_PROVIDER_CODES.has(error.providerCode))
      payload.providerCode = error.providerCode;
    if (error.retryAfterMs !== undefined) payload.retryAfterMs = error.retryAfterMs;
    return payload;
  }
  // The relay's own typed errors (a refused tool run, a misconfigured provider function): our text, redacted all the same.
  if (GloveError.isInstance(error)) return { code: error.code, message: redact(error.message) };
  log("[glove-server] the model relay's upstream failed", error);
  return { code: "GLOVE_INTERNAL", message: "The model request failed on the server; it was logged." };
}

function describeStatus(status: number): string {
  return status ? `HTTP ${status}` : "no HTTP status";
}

/** The message for a provider failure, from its status (and a well-known code), never from its text. */
function clientMessage(error: ProviderError): string {
  const { status } = error;
  const who = `The model provider (${error.provider})`;
  const special =
    error.providerCode !== undefined && Object.hasOwn(CODE_MESSAGES, error.providerCode)
      ? CODE_MESSAGES[error.providerCode]
      : undefined;
  if (special) return `${who} refused the request (${describeStatus(status)}): ${special}.`;
  if (status === 401 || status === 403) {
    return `${who} refused the server's provider credentials (HTTP ${status}). The request itself was fine: the server's operator must fix the provider key; the server log has details.`;
  }
  if (status === 429) {
    const wait =
      error.retryAfterMs !== undefined
        ? `retry in ${Math.max(1, Math.ceil(error.retryAfterMs / 1000))} s`
        : "try again later";
    return `${who} is rate limiting this server (HTTP 429); ${wait}.`;
  }
  if (status === 408 || status === 504) return `${who} timed out (HTTP ${status}); try again.`;
  if (status === 413) return `${who} refused the request as too large (HTTP 413): shorten or compact the conversation.`;
  if (status === 404)
    return `${who} does not know the model or endpoint (HTTP 404); the server's operator should check the model name. The server log has details.`;
  if (status >= 400 && status < 500) {
    return `${who} refused the request (HTTP ${status}): check the messages, tools and options sent; the server log has the provider's reason.`;
  }
  if (status >= 500) return `${who} returned HTTP ${status}; try again later.`;
  // No error status: a failure inside a successful answer (or without any answer).
  if (error.retryable)
    return `The connection to the model provider (${error.provider}) failed or was cut before the answer was complete; try again.`;
  return `${who} reported an error or sent an answer the server could not read; try again, and if it persists, the server log has details.`;
}
