import type { ModelCallAnswer } from "glove-core";

/** Span attributes of a model call's timing (kept even when the request log is off). */
export const CALL_TIMING_ATTR = {
  /** Milliseconds from the call's start to its first streamed text or tool call (of the attempt that answered). */
  timeToFirstToken: "glove.time_to_first_token_ms",
  /**
   * The call's attempts as JSON: [{ attempt, startMs (from the call's start), durationMs, outcome,
   * status?, cause?, delayMs? }], when it took more than one.
   */
  attempts: "glove.attempts",
} as const;

/** Longest retry cause kept per attempt on a span. */
const CAUSE_CHARS = 200;

/** The timing attributes of a finished call that started at `startedAt`. */
export function callTiming(startedAt: number, answer: ModelCallAnswer): Record<string, string | number> {
  const out: Record<string, string | number> = {};
  if (answer.firstTokenAt !== undefined)
    out[CALL_TIMING_ATTR.timeToFirstToken] = Math.max(0, answer.firstTokenAt - startedAt);
  if (answer.attempts.length > 1) {
    out[CALL_TIMING_ATTR.attempts] = JSON.stringify(
      answer.attempts.map((a) => ({
        attempt: a.attempt,
        startMs: Math.max(0, a.startMs - startedAt),
        durationMs: Math.max(0, a.endMs - a.startMs),
        outcome: a.outcome,
        ...(a.status !== undefined ? { status: a.status } : {}),
        ...(a.cause !== undefined ? { cause: a.cause.slice(0, CAUSE_CHARS) } : {}),
        ...(a.delayMs !== undefined ? { delayMs: a.delayMs } : {}),
      })),
    );
  }
  return out;
}
