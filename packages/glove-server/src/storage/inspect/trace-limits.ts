import type { TurnTrace } from "./types.js";

/** How much turn timing a storage keeps: spans per turn and turns per conversation. */
export interface TraceLimits {
  /** Spans kept per turn; later ones are counted in `dropped`. Default 1000. */
  spansPerTurn: number;
  /** Traces kept per conversation, the newest; older ones are deleted as new ones are saved. Default 200. */
  tracesPerConversation: number;
}

export const DEFAULT_TRACE_LIMITS: TraceLimits = Object.freeze({ spansPerTurn: 1000, tracesPerConversation: 200 });

/** `limits` filled with the defaults; each must be a positive integer. */
export function traceLimits(limits: Partial<TraceLimits> = {}): TraceLimits {
  const merged = { ...DEFAULT_TRACE_LIMITS, ...limits };
  for (const [key, value] of Object.entries(merged)) {
    if (!Number.isSafeInteger(value) || value < 1)
      throw new TypeError(`turn trace limits: ${key} must be a positive integer; got ${String(value)}.`);
  }
  return merged;
}

/** The trace as stored: at most `spansPerTurn` spans, the rest counted as dropped. */
export function boundedTrace(trace: TurnTrace, limits: TraceLimits): TurnTrace {
  if (trace.spans.length <= limits.spansPerTurn) return trace;
  const dropped = (trace.dropped ?? 0) + trace.spans.length - limits.spansPerTurn;
  return { ...trace, spans: trace.spans.slice(0, limits.spansPerTurn), truncated: true, dropped };
}
