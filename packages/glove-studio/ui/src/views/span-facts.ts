import { DEFAULT_PRICES, priceOf, type PriceTable } from "glove-core/prices";
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

/**
 * What a model call cost in US dollars, from its recorded tokens and glove-core's price table
 * (glove-core/prices, the table glove-evals uses): undefined when it is not a model call, recorded
 * no tokens, or its model is unknown or not in the table (a subagent's calls name no model).
 */
export function callCost(span: Span, table: PriceTable = DEFAULT_PRICES): number | undefined {
  if (span.kind !== "model_call") return undefined;
  const tokensIn = span.attributes["gen_ai.usage.input_tokens"];
  const tokensOut = span.attributes["gen_ai.usage.output_tokens"];
  if (typeof tokensIn !== "number" && typeof tokensOut !== "number") return undefined;
  const { model } = modelOf(span);
  const price = model === undefined ? undefined : priceOf(model, table);
  if (!price) return undefined;
  return (Number(tokensIn ?? 0) * price.inputPerMillion + Number(tokensOut ?? 0) * price.outputPerMillion) / 1e6;
}

/** A turn's cost: the priced calls added up, and how many calls with tokens had no price. */
export function turnCost(
  spans: readonly Span[],
  table: PriceTable = DEFAULT_PRICES,
): { usd: number; unpriced: number } {
  let usd = 0;
  let unpriced = 0;
  for (const span of spans) {
    if (span.kind !== "model_call") continue;
    const cost = callCost(span, table);
    if (cost !== undefined) usd += cost;
    else if (span.attributes["gen_ai.usage.input_tokens"] !== undefined) unpriced++;
  }
  return { usd, unpriced };
}

/** "$0.0123" (four decimals under a dollar, two above). */
export function usd(amount: number): string {
  return `$${amount.toFixed(amount < 1 ? 4 : 2)}`;
}

/** One attempt of a model call as the trace keeps it (glove.attempts), times from the call's start. */
export interface SpanAttempt {
  attempt: number;
  startMs: number;
  durationMs: number;
  outcome: "ok" | "retried" | "failed";
  status?: number;
  cause?: string;
  delayMs?: number;
}

/** The call's attempts when it took more than one (each with its own timing and cause); [] otherwise. */
export function attemptsOf(span: Span): SpanAttempt[] {
  const raw = span.attributes["glove.attempts"];
  if (typeof raw !== "string") return [];
  try {
    const parsed = JSON.parse(raw) as unknown;
    return Array.isArray(parsed)
      ? parsed.filter(
          (a): a is SpanAttempt =>
            typeof a === "object" && a !== null && typeof (a as SpanAttempt).startMs === "number",
        )
      : [];
  } catch {
    return [];
  }
}

/** Milliseconds from the call's start to its first streamed token, when recorded. */
export function firstTokenOf(span: Span): number | undefined {
  const ms = span.attributes["glove.time_to_first_token_ms"];
  return typeof ms === "number" && Number.isFinite(ms) ? ms : undefined;
}

/** "attempt 1: 1.20 s, retried — 429 rate_limit: slow down; waited 500 ms". */
export function attemptLine(a: SpanAttempt, format: (ms: number) => string): string {
  const what =
    a.outcome === "retried"
      ? `retried — ${a.status !== undefined ? `${a.status} ` : ""}${a.cause ?? ""}`.trim()
      : a.outcome === "ok"
        ? "answered"
        : "failed";
  const wait = a.delayMs !== undefined ? `; waited ${format(a.delayMs)}` : "";
  return `attempt ${a.attempt + 1}: at +${format(a.startMs)}, ${format(a.durationMs)}, ${what}${wait}`;
}
