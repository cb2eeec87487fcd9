import type { LiHTMLAttributes, ReactNode } from "react";
import type { Message, TurnTrace } from "../api.js";
import { ClippedText, JsonBlock } from "../parts/clipped-text.js";
import { duration } from "../parts/format.js";
import { StatusBadge } from "../parts/status-badge.js";

type Result = NonNullable<Message["tool_results"]>[number];
type Span = TurnTrace["spans"][number];

/** The turns' spans by tool call id, and each span's children (a subagent run under its call). */
export interface SpanIndex {
  byCall: Map<string, Span>;
  children: Map<string, Span[]>;
  /** The model call that answered with a tool call, by the tool call's id: its request's page. */
  requestByToolCall: Map<string, string>;
  /**
   * A turn's last model call of its own agent, by the number of messages it was sent: the agent
   * message stored next, at that position, is its answer (unless compaction shortened the view).
   */
  requestByPosition: Map<number, string>;
}

const requestHref = (trace: TurnTrace, callId: string) =>
  `#/c/${encodeURIComponent(trace.conversationId)}/t/${encodeURIComponent(trace.turnId)}/call/${encodeURIComponent(callId)}`;

export function spanIndex(traces: TurnTrace[]): SpanIndex {
  const index: SpanIndex = {
    byCall: new Map(),
    children: new Map(),
    requestByToolCall: new Map(),
    requestByPosition: new Map(),
  };
  // Oldest first: a position is kept by the oldest call that claims it (a later turn after compaction sends fewer).
  for (const trace of [...traces].reverse()) {
    const own = (trace.calls ?? []).filter((c) => c.agentPath === undefined && !c.compaction);
    for (const call of own)
      for (const toolCall of call.answer?.toolCalls ?? [])
        if (toolCall.id) index.requestByToolCall.set(toolCall.id, requestHref(trace, call.callId));
    const last = own.at(-1);
    if (last && !last.answer?.toolCalls?.length && !index.requestByPosition.has(last.contextMessages))
      index.requestByPosition.set(last.contextMessages, requestHref(trace, last.callId));
  }
  for (const trace of traces) {
    for (const span of trace.spans) {
      const id = span.attributes["gen_ai.tool.call.id"];
      // The timeline shows the top agent's calls; a subagent's call ids may repeat them.
      if (typeof id === "string" && span.attributes["glove.agent_path"] === undefined) index.byCall.set(id, span);
      if (span.parentSpanId)
        index.children.set(span.parentSpanId, [...(index.children.get(span.parentSpanId) ?? []), span]);
    }
  }
  return index;
}

/** What ran below a call (a subagent's model and tool calls), nested as it ran. */
function NestedRuns({ span, index }: { span: Span; index: SpanIndex }) {
  const below = index.children.get(span.spanId) ?? [];
  if (below.length === 0) return null;
  return (
    <ul className="nested-runs" data-testid="nested-runs">
      {below.map((child) => (
        <li key={child.spanId} data-kind={child.kind}>
          {child.name} <StatusBadge status={child.status} /> <span className="muted">{duration(child.durationMs)}</span>
          <NestedRuns span={child} index={index} />
        </li>
      ))}
    </ul>
  );
}

export function resultsById(messages: Message[]): Map<string, Result> {
  const byId = new Map<string, Result>();
  for (const m of messages) for (const r of m.tool_results ?? []) if (r.call_id) byId.set(r.call_id, r);
  return byId;
}

const SUBAGENT = /subagent/i;

function ToolCallCard({
  call,
  result,
  index,
}: {
  call: NonNullable<Message["tool_calls"]>[number];
  result: Result | undefined;
  index: SpanIndex;
}) {
  const status = result?.result.status ?? "running";
  const span = call.id ? index.byCall.get(call.id) : undefined;
  const took = span?.durationMs;
  return (
    <div className={SUBAGENT.test(call.tool_name) ? "tool-call subagent" : "tool-call"} data-testid="tool-call">
      <div className="tool-head">
        <strong>{SUBAGENT.test(call.tool_name) ? `subagent run · ${call.tool_name}` : call.tool_name}</strong>
        <StatusBadge status={status === "success" ? "ok" : status} />
        {span && <span className="muted">{duration(took)}</span>}
        {call.id && <code className="muted">{call.id}</code>}
      </div>
      <div className="tool-io">
        <div>
          <h4>Input</h4>
          <JsonBlock value={call.input_args} />
        </div>
        <div>
          <h4>Result</h4>
          {result ? (
            <>
              {result.result.message && <p className="error">{result.result.message}</p>}
              <JsonBlock value={result.result.data} />
            </>
          ) : (
            <p className="muted">no result yet</p>
          )}
        </div>
      </div>
      {span && <NestedRuns span={span} index={index} />}
    </div>
  );
}

/** Whether a message has nothing of its own to show (tool results are shown on their calls). */
export const onlyResults = (m: Message) => Boolean(m.tool_results?.length && !m.tool_calls?.length && !m.text);

/** One message with its tool calls (input, result, status, duration) and the runtime's markers. */
export function MessageItem({
  message: m,
  resultsByCall: results,
  index,
  actions,
  ...rest
}: {
  message: Message;
  resultsByCall: Map<string, Result>;
  index: SpanIndex;
  /** Buttons acting on the message (the mounted playground's edit and fork). */
  actions?: ReactNode;
} & LiHTMLAttributes<HTMLLIElement> & { "data-index"?: number }) {
  const kind = m.is_compaction
    ? "compaction"
    : m.is_compaction_request
      ? "compaction-request"
      : m.is_skill_injection
        ? "skill"
        : m.sender;
  // The model call this agent message answered: by its tool calls' ids, else by its position.
  const position = rest["data-index"];
  const request =
    m.sender !== "agent"
      ? undefined
      : (m.tool_calls?.map((c) => (c.id ? index.requestByToolCall.get(c.id) : undefined)).find(Boolean) ??
        (m.tool_calls?.length || position === undefined ? undefined : index.requestByPosition.get(position)));
  return (
    <li {...rest} className="message-row" data-testid="message" data-sender={m.sender}>
      <div className={`message message-${kind}`}>
        <div className="message-head">
          <strong>
            {kind === "compaction"
              ? "Compaction summary"
              : kind === "skill"
                ? "Skill injection"
                : kind === "compaction-request"
                  ? "Compaction request"
                  : m.sender}
          </strong>
          {m.is_refusal && <StatusBadge status="refused" />}
          {request && (
            <a href={request} className="request-link" data-testid="request-link">
              Request
            </a>
          )}
          {actions}
        </div>
        {m.pre_modified_text !== undefined && m.pre_modified_text !== m.text && (
          <p className="hook muted">
            Rewritten by a hook; typed: <ClippedText text={m.pre_modified_text} />
          </p>
        )}
        {m.reasoning_content && (
          <details>
            <summary>Reasoning</summary>
            <ClippedText text={m.reasoning_content} />
          </details>
        )}
        {m.text && <ClippedText text={m.text} />}
        {m.tool_calls?.map((call, j) => (
          <ToolCallCard
            key={call.id ?? j}
            call={call}
            result={call.id ? results.get(call.id) : undefined}
            index={index}
          />
        ))}
      </div>
    </li>
  );
}

/** A short list of messages, all rendered (a branch set aside); the conversation's own is virtualised. */
export function Timeline({ messages, offset, traces }: { messages: Message[]; offset: number; traces: TurnTrace[] }) {
  const results = resultsById(messages);
  const index = spanIndex(traces);
  return (
    <ol className="timeline" start={offset + 1}>
      {messages.map((m, i) =>
        onlyResults(m) ? null : (
          <MessageItem key={m.id ?? offset + i} message={m} resultsByCall={results} index={index} />
        ),
      )}
    </ol>
  );
}
