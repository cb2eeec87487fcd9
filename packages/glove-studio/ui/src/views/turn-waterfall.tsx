import { Fragment, useEffect, useState } from "react";
import { RequestInspector } from "./request-inspector.js";
import { api, type TurnTrace } from "../api.js";
import { duration, retryCount, tokens, when } from "../parts/format.js";
import { StatusBadge } from "../parts/status-badge.js";
import {
  attemptLine,
  attemptsOf,
  callCost,
  firstTokenOf,
  modelOf,
  retriesOf,
  retrySummary,
  turnCost,
  usd,
} from "./span-facts.js";

type Span = TurnTrace["spans"][number];

/** Spans in start order with their nesting depth (a subagent's calls under its run). */
function ordered(spans: Span[]): Array<{ span: Span; depth: number }> {
  const children = new Map<string | null, Span[]>();
  const ids = new Set(spans.map((s) => s.spanId));
  for (const span of spans) {
    const parent = span.parentSpanId !== null && ids.has(span.parentSpanId) ? span.parentSpanId : null;
    children.set(parent, [...(children.get(parent) ?? []), span]);
  }
  const out: Array<{ span: Span; depth: number }> = [];
  const walk = (parent: string | null, depth: number) => {
    for (const span of (children.get(parent) ?? []).sort((a, b) => a.startMs - b.startMs)) {
      out.push({ span, depth });
      walk(span.spanId, depth + 1);
    }
  };
  walk(null, 0);
  return out;
}

const attr = (span: Span, key: string) => span.attributes[key];

/** One turn: a waterfall of its model and tool calls with start, duration, tokens, finish reason, retries and errors. */
export function TurnWaterfall({ id, turnId, callId }: { id: string; turnId: string; callId?: string | undefined }) {
  const [trace, setTrace] = useState<TurnTrace | undefined>();
  const [open, setOpen] = useState<string | undefined>(callId);
  useEffect(() => setOpen(callId), [callId]);
  const [error, setError] = useState<string | undefined>();
  useEffect(() => {
    let stop = false;
    const load = () =>
      api.trace(id, turnId).then(
        (t) => {
          if (stop) return;
          setTrace(t);
          if (t.status === "running") setTimeout(load, 1000);
        },
        (e: Error) => setError(e.message),
      );
    void load();
    return () => {
      stop = true;
    };
  }, [id, turnId]);
  if (error)
    return (
      <p className="error" role="alert">
        {error}
      </p>
    );
  if (!trace) return <p className="muted">Loading…</p>;

  const start = Date.parse(trace.startedAt);
  const end = Math.max(
    trace.endedAt ? Date.parse(trace.endedAt) : Date.now(),
    ...trace.spans.map((s) => s.startMs + (s.durationMs ?? Date.now() - s.startMs)),
  );
  const total = Math.max(1, end - start);
  const calls = new Map((trace.calls ?? []).flatMap((c) => (c.spanId ? [[c.spanId, c] as const] : [])));
  const at = (ms: number) => `${((ms - start) / total) * 100}%`;
  return (
    <section className="waterfall-view">
      <p>
        <a href={`#/c/${encodeURIComponent(id)}`}>← conversation</a>
      </p>
      <h2>
        Turn <code>{turnId}</code> <StatusBadge status={trace.status} />
      </h2>
      <p className="muted">
        started {when(trace.startedAt)} · {duration(trace.endedAt ? total : null)} · {trace.spans.length} spans
        {trace.truncated && ` · ${trace.dropped ?? "some"} spans dropped (bound per turn)`}
        {(() => {
          const cost = turnCost(trace.spans);
          return (
            <span data-testid="turn-cost">
              {` · cost ${usd(cost.usd)}`}
              {cost.unpriced > 0 && ` (${cost.unpriced} call${cost.unpriced === 1 ? "" : "s"} without a price)`}
            </span>
          );
        })()}
      </p>
      <p className="muted" data-testid="trace-limits">
        A model call's bar runs from when it was sent to its last token; its tick marks the first token, and a retried
        call's attempts show as segments. "Request" shows what the model was sent and answered.
      </p>
      <table className="waterfall" data-testid="waterfall">
        <thead>
          <tr>
            <th>Call</th>
            <th>Model</th>
            <th className="bar-col">Timeline</th>
            <th>Start</th>
            <th>Duration</th>
            <th>First token</th>
            <th>Tokens in / out</th>
            <th>Cost</th>
            <th>Finish</th>
            <th>Retries</th>
            <th>Status</th>
          </tr>
        </thead>
        <tbody>
          {ordered(trace.spans).map(({ span, depth }) => {
            const call = calls.get(span.spanId);
            const attempts = attemptsOf(span);
            const firstToken = firstTokenOf(span);
            const left = ((span.startMs - start) / total) * 100;
            const width = Math.max(0.5, (((span.durationMs ?? end - span.startMs) as number) / total) * 100);
            const inTokens = attr(span, "gen_ai.usage.input_tokens");
            const outTokens = attr(span, "gen_ai.usage.output_tokens");
            const retries = retriesOf(span).count;
            const { model, agentPath } = modelOf(span);
            const retried = retrySummary(span);
            const errorType = attr(span, "error.type");
            const retryReason = attr(span, "glove.retry.reason");
            // Said on the bar too: a slow call that was retried, or failed, is seen at a glance.
            // Beside the bar while there is room, else inside its end.
            const barEnd = Math.min(left + width, 100);
            const inside = barEnd > 75;
            const note = [retries > 0 ? retryCount(retries) : "", errorType !== undefined ? String(errorType) : ""]
              .filter(Boolean)
              .join(" · ");
            return (
              <Fragment key={span.spanId}>
                <tr data-testid="span" data-kind={span.kind}>
                  <td className="span-name" style={{ paddingLeft: `${0.5 + depth * 1.25}rem` }}>
                    {span.name}
                    {call && (
                      <>
                        {" "}
                        <button
                          type="button"
                          className="link"
                          data-testid="show-request"
                          aria-expanded={open === call.callId}
                          onClick={() => setOpen(open === call.callId ? undefined : call.callId)}
                        >
                          Request
                        </button>
                      </>
                    )}
                  </td>
                  <td data-testid="model">
                    {span.kind === "model_call" &&
                      (model ?? (
                        <span className="muted">
                          {agentPath !== undefined ? `${agentPath} · ` : ""}model not recorded
                        </span>
                      ))}
                  </td>
                  <td className="bar-col">
                    <div className="bar-track">
                      <div
                        className={`bar bar-${span.kind} bar-${span.status}`}
                        style={{ left: `${left}%`, width: `${Math.min(width, 100 - left)}%` }}
                      />
                      {attempts.map((a) => (
                        <div
                          key={a.attempt}
                          className={`bar-attempt bar-attempt-${a.outcome}`}
                          data-testid="bar-attempt"
                          title={attemptLine(a, duration)}
                          style={{
                            left: at(span.startMs + a.startMs),
                            width: `${Math.max(0.3, (a.durationMs / total) * 100)}%`,
                          }}
                        />
                      ))}
                      {firstToken !== undefined && (
                        <div
                          className="bar-ttft"
                          data-testid="bar-ttft"
                          title={`first token after ${duration(firstToken)}`}
                          style={{ left: at(span.startMs + firstToken) }}
                        />
                      )}
                      {note && (
                        <span
                          className={`bar-note${inside ? " bar-note-inside" : errorType !== undefined ? " bar-note-error" : ""}`}
                          data-testid="bar-note"
                          title={retryReason !== undefined ? `last retry: ${String(retryReason)}` : undefined}
                          style={inside ? { right: `${100 - barEnd}%` } : { left: `${barEnd}%` }}
                        >
                          {note}
                        </span>
                      )}
                    </div>
                  </td>
                  <td>+{duration(span.startMs - start)}</td>
                  <td>{duration(span.durationMs)}</td>
                  <td data-testid="ttft">{firstToken !== undefined ? duration(firstToken) : ""}</td>
                  <td>
                    {typeof inTokens === "number" ? `${tokens(inTokens)} / ${tokens(Number(outTokens ?? 0))}` : ""}
                  </td>
                  <td data-testid="cost">
                    {(() => {
                      const cost = callCost(span);
                      return cost === undefined ? "" : usd(cost);
                    })()}
                  </td>
                  <td>{String(attr(span, "gen_ai.response.finish_reasons") ?? "")}</td>
                  <td
                    data-testid="retries"
                    title={retryReason !== undefined ? `last retry: ${String(retryReason)}` : undefined}
                  >
                    {retries > 0 ? retryCount(retries) : ""}
                  </td>
                  <td>
                    <StatusBadge status={span.status} />{" "}
                    {errorType !== undefined && <span className="error">{String(errorType)}</span>}
                  </td>
                </tr>
                {retried && (
                  <tr className="span-detail">
                    <td />
                    <td colSpan={10} className={errorType !== undefined ? "error" : "muted"} data-testid="retry-detail">
                      {retried}
                      {attempts.length > 0 && (
                        <ol className="attempts" data-testid="attempts">
                          {attempts.map((a) => (
                            <li key={a.attempt}>{attemptLine(a, duration)}</li>
                          ))}
                        </ol>
                      )}
                    </td>
                  </tr>
                )}
                {call && open === call.callId && (
                  <tr className="span-detail">
                    <td colSpan={11}>
                      <RequestInspector id={id} turnId={turnId} callId={call.callId} />
                    </td>
                  </tr>
                )}
              </Fragment>
            );
          })}
        </tbody>
      </table>
    </section>
  );
}
