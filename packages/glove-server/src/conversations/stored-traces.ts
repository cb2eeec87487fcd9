import { TRACE_ATTR } from "glove-core";
import type { ConversationStats } from "../storage/conversation-record.js";
import type { TurnTrace, TurnTraceStore } from "../storage/inspect/types.js";
import { closedSpan } from "./trace-spans.js";

// Stored traces of turns that no recorder holds any more: a turn whose process died, and a turn
// that left memory waiting for a person whose call goes on in a later turn.

/** Traces looked at for a call that goes on in a later turn: the waiting turn is among the last few. */
const RECENT_TRACES = 10;

/**
 * Ends the stored trace of a turn found running when its conversation was reopened (its process
 * died): "waiting" when it waits on stored questions (its waiting calls stay open until answered),
 * else "interrupted" with its open spans. Returns what the model calls it recorded as finished add
 * to the conversation's stats — the stats are saved when a turn ends, so a turn cut short never
 * saved its own.
 */
export async function endStoredTrace(
  store: TurnTraceStore,
  conversationId: string,
  turnId: string,
  how: "waiting" | "interrupted" | "done",
): Promise<ConversationStats> {
  const trace = await store.get(conversationId, turnId);
  if (!trace || trace.status !== "running") return { turns: 0, tokens_in: 0, tokens_out: 0 };
  const spans =
    how === "waiting"
      ? trace.spans.map((s) => (s.status === "running" && s.kind === "model_call" ? interrupted(s) : s))
      : trace.spans.map((s) => (s.status === "running" ? interrupted(s) : s));
  await store.save({
    ...trace,
    spans,
    status: how === "done" ? "completed" : how,
    endedAt: new Date().toISOString(),
  });
  return tracedStats(trace);
}

/**
 * The stats a trace's finished model calls add up to, as a conversation counts them: one per
 * model call that answered (a subagent's included), and the tokens they reported.
 */
export function tracedStats(trace: Pick<TurnTrace, "spans">): ConversationStats {
  const stats = { turns: 0, tokens_in: 0, tokens_out: 0 };
  for (const span of trace.spans) {
    if (span.kind !== "model_call" || span.status !== "ok") continue;
    stats.turns++;
    stats.tokens_in += numberOr0(span.attributes[TRACE_ATTR.inputTokens]);
    stats.tokens_out += numberOr0(span.attributes[TRACE_ATTR.outputTokens]);
  }
  return stats;
}

/**
 * A call that waited for a person goes on in turn `turnId` (its answer came): the earlier trace
 * that left it waiting ends its open spans there — the call, and the subagents it ran under — as
 * continued in `turnId`, so no view shows them running for ever.
 */
export async function endContinuedCall(
  store: TurnTraceStore,
  conversationId: string,
  turnId: string,
  callId: string,
): Promise<void> {
  for (const trace of await store.list(conversationId, { limit: RECENT_TRACES })) {
    if (trace.turnId === turnId || trace.status !== "waiting") continue;
    const call = trace.spans.find(
      (s) => s.status === "running" && s.kind === "tool_call" && s.attributes[TRACE_ATTR.toolCallId] === callId,
    );
    if (!call) continue;
    const open = new Set(ancestors(trace, call.spanId));
    const spans = trace.spans.map((s) => {
      if (!open.has(s.spanId) || s.status !== "running") return s;
      const ended = closedSpan(s, "ok");
      ended.attributes[TRACE_ATTR.continuedIn] = turnId;
      return ended;
    });
    await store.save({ ...trace, spans });
  }
}

/** The span and the spans it runs under, innermost first. */
function ancestors(trace: TurnTrace, spanId: string): string[] {
  const byId = new Map(trace.spans.map((s) => [s.spanId, s]));
  const chain: string[] = [];
  for (let id: string | null = spanId; id !== null && byId.has(id) && !chain.includes(id);) {
    chain.push(id);
    id = byId.get(id)!.parentSpanId;
  }
  return chain;
}

function interrupted(span: TurnTrace["spans"][number]) {
  return closedSpan(span, "aborted", "glove.interrupted");
}

function numberOr0(value: unknown): number {
  return typeof value === "number" && Number.isFinite(value) ? value : 0;
}
