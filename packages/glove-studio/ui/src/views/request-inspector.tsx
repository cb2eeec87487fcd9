import { useEffect, useState } from "react";
import { api, type ResolvedRequest } from "../api.js";
import { ClippedText, JsonBlock } from "../parts/clipped-text.js";
import { tokens } from "../parts/format.js";

/** The body's message list and the rest of it (system, tools, options), as the call's record names the list. */
function split(resolved: ResolvedRequest): { rest: unknown; messages: unknown[] } {
  const key = resolved.call.request.listKey;
  const body = resolved.body;
  if (key === undefined || body === null || typeof body !== "object") return { rest: body, messages: [] };
  const { [key]: list, ...rest } = body as Record<string, unknown>;
  return { rest, messages: Array.isArray(list) ? list : [] };
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;

/**
 * "Why did the model do that?": one model call's request as it went to the provider (secrets
 * redacted by glove-core before anything was stored), its answer as read, and what changed in the
 * context since the previous call of the turn. All text is shown as text: stored content stays inert.
 */
export function RequestInspector({ id, turnId, callId }: { id: string; turnId: string; callId: string }) {
  const [resolved, setResolved] = useState<ResolvedRequest | undefined>();
  const [error, setError] = useState<string | undefined>();
  useEffect(() => {
    let stop = false;
    setResolved(undefined);
    setError(undefined);
    api.modelCall(id, turnId, callId).then(
      (r) => !stop && setResolved(r),
      (e: Error) => !stop && setError(e.message),
    );
    return () => {
      stop = true;
    };
  }, [id, turnId, callId]);
  if (error)
    return (
      <p className="error" role="alert">
        {error}
      </p>
    );
  if (!resolved) return <p className="muted">Loading the request…</p>;
  const { call, previous, missing } = resolved;
  const { rest, messages } = split(resolved);
  const answer = call.answer;
  return (
    <div className="request-inspector" data-testid="request-inspector">
      <p className="muted" data-testid="request-target">
        {call.request.form === "wire"
          ? `${call.provider ?? call.adapter} · ${call.model ?? ""} · POST ${call.url ?? ""}`
          : `${call.adapter} (a third-party adapter: Glove's request, not the wire body)`}
        {call.compaction && " · compaction summary call"}
        {call.clipped && " · some content was cut to the request log's bounds"}
      </p>
      {call.headers && (
        <details>
          <summary>Headers (credentials redacted)</summary>
          <JsonBlock value={call.headers} />
        </details>
      )}
      <details open>
        <summary>System prompt, tools and options</summary>
        <div data-testid="request-rest">
          <JsonBlock value={rest} />
        </div>
      </details>
      <details>
        <summary>
          Messages sent ({plural(messages.length, "message")}
          {missing > 0 && `; ${missing} from turns no longer stored`})
        </summary>
        <div data-testid="request-messages">
          <JsonBlock value={messages} />
        </div>
      </details>
      <h4>Since the previous call of this turn</h4>
      {previous ? (
        <div data-testid="request-diff">
          <p>
            {plural(previous.keptMessages, "message")} the same
            {previous.removed.length > 0 && `, ${plural(previous.removed.length, "message")} changed or gone`}
            {`, ${plural(previous.added.length, "message")} new`}
            {previous.restBefore !== undefined
              ? "; the system prompt, tools or options changed"
              : "; system prompt, tools and options unchanged"}
            .
          </p>
          {previous.removed.length > 0 && (
            <details>
              <summary>Changed or gone</summary>
              <div className="diff-removed">
                <JsonBlock value={previous.removed} />
              </div>
            </details>
          )}
          <div className="diff-added" data-testid="diff-added">
            <JsonBlock value={previous.added} />
          </div>
          {previous.restBefore !== undefined && (
            <details>
              <summary>System prompt, tools and options before</summary>
              <JsonBlock value={previous.restBefore} />
            </details>
          )}
        </div>
      ) : (
        <p className="muted">The turn's first call.</p>
      )}
      <h4>Answer</h4>
      {answer ? (
        <div data-testid="request-answer">
          <p className="muted">
            {answer.finishReason !== undefined && `finish: ${answer.finishReason}`}
            {answer.usage && ` · ${tokens(answer.usage.tokens_in)} in / ${tokens(answer.usage.tokens_out)} out`}
          </p>
          {answer.error && <p className="error">{answer.error}</p>}
          {answer.reasoning && (
            <details>
              <summary>Reasoning</summary>
              <ClippedText text={answer.reasoning} />
            </details>
          )}
          {answer.text && <ClippedText text={answer.text} />}
          {answer.toolCalls && <JsonBlock value={answer.toolCalls} />}
        </div>
      ) : (
        <p className="muted">No answer yet.</p>
      )}
    </div>
  );
}
