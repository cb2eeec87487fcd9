import { ProviderError, toAbortError } from "../../errors.js";
import type { ModelPromptResult, NotifySubscribersFunction, SubscriberEventDataMap } from "../../types/index.js";
import { readSSE } from "../shared/sse.js";
import { BodyReadError, type HttpResponse } from "../shared/http/types.js";
import { errorData, eventData, isForwardedEvent, resultData } from "./payload-checks.js";
import {
  RELAY_ERROR_EVENT,
  RELAY_PROVIDER,
  RELAY_RESULT_EVENT,
  type RelayErrorPayload,
  type RelayForwardedEvent,
} from "./protocol.js";

/** The ProviderError for an `error` event (status: the upstream's when the relay said, else 502). */
export function relayEventError(payload: RelayErrorPayload): ProviderError {
  return new ProviderError({
    provider: RELAY_PROVIDER,
    status: payload.status ?? 502,
    retryable: payload.retryable ?? false,
    providerMessage: payload.message,
    providerCode: payload.code === "GLOVE_PROVIDER" && payload.providerCode ? payload.providerCode : payload.code,
    ...(payload.retryAfterMs !== undefined ? { retryAfterMs: payload.retryAfterMs } : {}),
  });
}

/**
 * Reads a relay's event stream: replays each forwarded event through `notify`
 * in order and resolves with the `result`; an `error` event, a cut connection or
 * a stream ending without a result rejects. Subscriber errors pass through as
 * thrown; an abort of `signal` is always an AbortError.
 */
export async function readRelayStream(
  response: HttpResponse,
  notify: NotifySubscribersFunction,
  signal: AbortSignal | undefined,
): Promise<ModelPromptResult> {
  try {
    for await (const event of readSSE(response)) {
      if (event.event === RELAY_RESULT_EVENT) return resultData(event.data);
      if (event.event === RELAY_ERROR_EVENT) throw relayEventError(errorData(event.data));
      if (!isForwardedEvent(event.event)) continue;
      const data = eventData(event.event, event.data);
      await notify<RelayForwardedEvent>(event.event, data as SubscriberEventDataMap[RelayForwardedEvent]);
    }
  } catch (error) {
    if (signal?.aborted) throw toAbortError(signal.reason);
    if (error instanceof BodyReadError) {
      const cause = error.cause instanceof Error ? error.cause.message : String(error.cause);
      throw lost(`connection to the relay lost mid-stream: ${cause}`, true, error.cause);
    }
    throw error;
  }
  if (signal?.aborted) throw toAbortError(signal.reason);
  throw lost("the relay's stream ended before its result", true);
}

function lost(message: string, retryable: boolean, cause?: unknown): ProviderError {
  return new ProviderError({ provider: RELAY_PROVIDER, status: 0, retryable, providerMessage: message, cause });
}
