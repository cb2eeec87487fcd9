import { TRACE_ATTR } from "glove-core";
import type { TraceSpan } from "../storage/inspect/types.js";

/** Ends a running span (a span already ended keeps its outcome). */
export function endSpan(span: TraceSpan, status: TraceSpan["status"], errorType?: string): void {
  if (span.status !== "running") return;
  span.status = status;
  span.durationMs = Math.max(0, Date.now() - span.startMs);
  if (errorType && status !== "ok") span.attributes[TRACE_ATTR.errorType] = errorType;
}

/** A copy of the span, ended (a span already ended is copied as it is). */
export function closedSpan(span: TraceSpan, status: TraceSpan["status"], errorType?: string): TraceSpan {
  const copy = { ...span, attributes: { ...span.attributes } };
  endSpan(copy, status, errorType);
  return copy;
}
