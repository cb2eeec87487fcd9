import type { TurnTrace } from "../api.js";
import { retryCount } from "../parts/format.js";

type Span = TurnTrace["spans"][number];

const text = (value: unknown) => (value === undefined ? undefined : String(value));

/**
 * The model a call went to, as the trace records it. glove-server names the turn's own agent's
 * model; a subagent's calls carry its agent path but no model name.
 */
export function modelOf(span: Span): { model?: string; agentPath?: string } {
  const model = text(span.attributes["gen_ai.request.model"] ?? span.attributes["gen_ai.response.model"]);
  const agentPath = text(span.attributes["glove.agent_path"]);
  return { ...(model !== undefined ? { model } : {}), ...(agentPath !== undefined ? { agentPath } : {}) };
}

/** "2 retries; last cause: rate_limit_exceeded: …" — the trace keeps the count and the last cause only. */
export function retriesOf(span: Span): { count: number; lastCause?: string } {
  const count = Number(span.attributes["glove.retries"] ?? 0);
  const lastCause = text(span.attributes["glove.retry.reason"]);
  return { count: Number.isFinite(count) ? count : 0, ...(lastCause !== undefined ? { lastCause } : {}) };
}

export function retrySummary(span: Span): string | undefined {
  const { count, lastCause } = retriesOf(span);
  if (count <= 0) return undefined;
  const attempts = `${count + 1} attempts (${retryCount(count)})`;
  return lastCause === undefined ? attempts : `${attempts}; last retry's cause: ${lastCause}`;
}
