import { useCallback, useEffect, useRef, useState } from "react";
import { api, type ConversationDetail, type StudioInfo } from "../api.js";
import { useLiveConversation } from "../live/use-live.js";
import { ClippedText } from "../parts/clipped-text.js";
import { duration, tokens, when } from "../parts/format.js";
import { StatusBadge } from "../parts/status-badge.js";
import { Questions } from "./questions.js";
import { Branches, SidePanels } from "./side-panels.js";
import { FindBar } from "./find-bar.js";
import { useMessagePages } from "./message-pages.js";
import { VirtualTimeline, type TimelineControls } from "./virtual-timeline.js";
import { AuditPanel, Playground, RowActions, type Pending } from "./playground.js";

/** One conversation: its record, questions, tasks, inbox, turns and the message timeline, kept current. */
export function ConversationView({
  id,
  canAct,
  mode,
  variants = [],
}: {
  id: string;
  canAct: boolean;
  /** The variants a fork may run on (mounted). */
  variants?: string[] | undefined;
  /** Mounted pages follow the conversation's events; standalone ones read it again now and then. */
  mode: StudioInfo["mode"] | undefined;
}) {
  const [detail, setDetail] = useState<ConversationDetail | undefined>();
  const messages = useMessagePages(id);
  const [detailError, setError] = useState<string | undefined>();
  const [fixture, setFixture] = useState<string | undefined>();
  const [found, setFound] = useState<number | undefined>();
  const [pending, setPending] = useState<Pending>();
  const controls = useRef<TimelineControls | null>(null);
  const reloadMessages = messages.reload;

  /** Reads the record and the messages on screen again. */
  const refresh = useCallback(async () => {
    try {
      const [next] = await Promise.all([api.conversation(id), reloadMessages()]);
      setDetail(next);
      setError(undefined);
    } catch (e) {
      setError((e as Error).message);
    }
  }, [id, reloadMessages]);

  useEffect(() => {
    setDetail(undefined);
    setFound(undefined);
    setPending(undefined);
    void refresh();
    // Only when the conversation changes: `refresh` changes with what was loaded.
  }, [id]);
  const live = detail?.conversation.status === "running";
  const streaming = useLiveConversation(id, mode, refresh);
  const error = detailError ?? messages.error;

  if (error && !detail)
    return (
      <p className="error" role="alert">
        {error}
      </p>
    );
  if (!detail || messages.total === undefined) return <p className="muted">Loading…</p>;
  const c = detail.conversation;

  const copyFixture = async () => {
    const source = await api.fixture(id);
    setFixture(source);
    await navigator.clipboard?.writeText(source).catch(() => undefined);
  };

  return (
    <section className="conversation-view">
      <div className="conversation-head">
        <h2 data-testid="conversation-title">{c.title ?? "(untitled)"}</h2>
        <StatusBadge status={c.status} />
        {live && (
          <span className="live" data-testid="live">
            live
          </span>
        )}
        <span className="muted">
          {c.agent} · {c.owner} · created {when(c.createdAt)} · {detail.messageCount} messages
          {c.stats &&
            ` · ${c.stats.turns} model calls · tokens in ${tokens(c.stats.tokens_in)} / out ${tokens(c.stats.tokens_out)}`}
        </span>
        <code className="muted">{c.id}</code>
        <div className="actions">
          {canAct && c.status === "running" && (
            <button type="button" onClick={() => void api.abort(id).then(refresh)}>
              Abort turn
            </button>
          )}
          <button type="button" onClick={() => void copyFixture()}>
            Copy as test
          </button>
        </div>
      </div>
      {error && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
      {fixture !== undefined && (
        <details open className="panel">
          <summary>ScriptedModel test (copied to the clipboard)</summary>
          <ClippedText text={fixture} as="pre" />
        </details>
      )}
      <Questions conversationId={id} questions={detail.questions} canAct={canAct} onChange={() => void refresh()} />
      <div className="columns">
        <div>
          <h3>Timeline</h3>
          <FindBar conversationId={id} controls={controls} onFound={setFound} />
          <VirtualTimeline
            total={messages.total}
            messageAt={messages.messageAt}
            loaded={messages.loaded}
            ensure={messages.ensure}
            traces={detail.traces}
            controls={controls}
            highlight={found}
            rowActions={
              canAct
                ? (message, index) => <RowActions message={message} index={index} onPick={setPending} />
                : undefined
            }
          />
          {streaming && (
            <div className="message message-agent streaming" data-testid="streaming">
              <div className="message-head">
                <strong>agent</strong> <span className="muted">writing…</span>
              </div>
              <ClippedText text={streaming} />
            </div>
          )}
          {canAct && (
            <Playground
              id={id}
              detail={detail}
              variants={variants}
              pending={pending}
              onPick={setPending}
              onChange={() => void refresh()}
            />
          )}
        </div>
        <aside>
          {canAct && <AuditPanel id={id} version={detail} />}
          <section className="panel" data-testid="turns">
            <h3>Turns</h3>
            {detail.traces.length === 0 && <p className="muted">No turn traces recorded.</p>}
            <ul>
              {detail.traces.map((t) => (
                <li key={t.turnId}>
                  <a href={`#/c/${encodeURIComponent(id)}/t/${encodeURIComponent(t.turnId)}`} data-testid="turn-link">
                    {when(t.startedAt)}
                  </a>{" "}
                  <StatusBadge status={t.status} />{" "}
                  <span className="muted">
                    {t.spans.length} spans ·{" "}
                    {duration(t.endedAt ? Date.parse(t.endedAt) - Date.parse(t.startedAt) : null)}
                  </span>
                </li>
              ))}
            </ul>
          </section>
          <SidePanels tasks={detail.tasks} inbox={detail.inbox} />
          <Branches branches={detail.branches} traces={detail.traces} />
        </aside>
      </div>
    </section>
  );
}
