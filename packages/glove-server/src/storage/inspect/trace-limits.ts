import type { TraceLimits, TurnTrace } from "./types.js";

export type { TraceLimits } from "./types.js";

export const DEFAULT_TRACE_LIMITS: TraceLimits = Object.freeze({
  spansPerTurn: 1000,
  tracesPerConversation: 200,
  requestLog: true,
  requestCharsPerTurn: 1_000_000,
});

/** `limits` filled with the defaults; each count must be a positive integer, `requestLog` a boolean. */
export function traceLimits(limits: Partial<TraceLimits> = {}): TraceLimits {
  const merged = { ...DEFAULT_TRACE_LIMITS, ...limits };
  for (const [key, value] of Object.entries(merged)) {
    if (key === "requestLog") {
      if (typeof value !== "boolean")
        throw new TypeError(`turn trace limits: requestLog must be true or false; got ${String(value)}.`);
      continue;
    }
    if (!Number.isSafeInteger(value) || (value as number) < 1)
      throw new TypeError(`turn trace limits: ${key} must be a positive integer; got ${String(value)}.`);
  }
  return merged;
}

/**
 * The trace as stored: at most `spansPerTurn` spans, the rest counted as dropped; no recorded
 * calls when the request log is off; recorded calls past `requestCharsPerTurn` keep their timing
 * only (the recorder bounds them too: this holds for any writer).
 */
export function boundedTrace(trace: TurnTrace, limits: TraceLimits): TurnTrace {
  let bounded = trace;
  if (trace.spans.length > limits.spansPerTurn) {
    const dropped = (trace.dropped ?? 0) + trace.spans.length - limits.spansPerTurn;
    bounded = { ...trace, spans: trace.spans.slice(0, limits.spansPerTurn), truncated: true, dropped };
  }
  if (bounded.calls === undefined) return bounded;
  if (!limits.requestLog) {
    const { calls: _off, ...rest } = bounded;
    return rest;
  }
  let chars = 0;
  let clipped = false;
  const calls = bounded.calls.map((call) => {
    chars += JSON.stringify(call).length;
    if (chars <= limits.requestCharsPerTurn) return call;
    clipped = true;
    return timingOnly(call);
  });
  return clipped ? { ...bounded, calls } : bounded;
}

/** A call past the bound: its timing and usage, no request or answer. */
export function timingOnly(call: NonNullable<TurnTrace["calls"]>[number]): NonNullable<TurnTrace["calls"]>[number] {
  const { request, answer, headers: _h, ...kept } = call;
  return {
    ...kept,
    clipped: true,
    request: { form: request.form, keep: 0, added: [], count: request.count, marks: [] },
    ...(answer?.usage || answer?.finishReason || answer?.error
      ? {
          answer: {
            ...(answer.usage ? { usage: answer.usage } : {}),
            ...(answer.finishReason ? { finishReason: answer.finishReason } : {}),
            ...(answer.error ? { error: answer.error } : {}),
          },
        }
      : {}),
  };
}
