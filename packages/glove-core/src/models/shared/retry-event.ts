import type { ProviderError } from "../../errors.js";
import type { SubscriberEventDataMap } from "../../types/index.js";

/** Longest provider message a `model_retry` event carries: enough to tell causes apart, never a whole error page. */
export const RETRY_REASON_CHARS = 200;

/** The `model_retry` event for retry number `attempt`, made after `failure`, `delayMs` from now. */
export function retryEvent(
  attempt: number,
  delayMs: number,
  failure: ProviderError,
): SubscriberEventDataMap["model_retry"] {
  // By code points, so a cut never splits an emoji into a lone surrogate.
  const chars = Array.from(failure.providerMessage);
  return {
    provider: failure.provider,
    attempt,
    delay_ms: delayMs,
    status: failure.status,
    ...(failure.providerCode !== undefined ? { code: failure.providerCode } : {}),
    reason:
      chars.length > RETRY_REASON_CHARS
        ? `${chars.slice(0, RETRY_REASON_CHARS - 1).join("")}…`
        : failure.providerMessage,
  };
}
