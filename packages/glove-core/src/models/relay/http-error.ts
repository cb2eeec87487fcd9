import { ProviderError } from "../../errors.js";
import { isRetryableStatus, parseErrorBody, retryAfterMs } from "../shared/transport.js";
import { RELAY_PROVIDER, type RelayIssue } from "./protocol.js";

/**
 * The ProviderError for a relay's non-2xx answer: its status, its code, and its
 * message with the field issues appended (they say what to fix in the request).
 */
export async function relayHttpError(response: Response): Promise<ProviderError> {
  let text = "";
  try {
    text = await response.text();
  } catch {
    // the status alone still says what happened
  }
  const { message, code } = parseErrorBody(text);
  const issues = issuesOf(text);
  const wait = retryAfterMs(response.headers);
  return new ProviderError({
    provider: RELAY_PROVIDER,
    status: response.status,
    retryable: isRetryableStatus(response.status),
    providerMessage: issues.length
      ? `${message} (${issues.map((i) => `${i.path || "body"}: ${i.message}`).join("; ")})`
      : message,
    ...(code !== undefined ? { providerCode: code } : {}),
    ...(wait !== undefined ? { retryAfterMs: wait } : {}),
  });
}

function issuesOf(text: string): RelayIssue[] {
  try {
    const body = JSON.parse(text) as { error?: { issues?: unknown } };
    const issues = body?.error?.issues;
    if (!Array.isArray(issues)) return [];
    return issues
      .filter((i): i is RelayIssue => typeof i?.path === "string" && typeof i?.message === "string")
      .slice(0, 10);
  } catch {
    return [];
  }
}
