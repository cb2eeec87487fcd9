import { useCallback, useEffect, useState } from "react";
import { api, type ConversationDetail, type Message, type StudioInfo } from "../api.js";
import { useLiveConversation } from "../live/use-live.js";
import { ClippedText } from "../parts/clipped-text.js";
import { duration, tokens, when } from "../parts/format.js";
import { StatusBadge } from "../parts/status-badge.js";
import { Questions } from "./questions.js";
import { Branches, SidePanels } from "./side-panels.js";
import { Timeline } from "./timeline.js";

const PAGE = 200;

/** One conversation: its record, questions, tasks, inbox, turns and the message timeline, kept current. */
export function ConversationView({
  id,
  canAct,
  mode,
}: {
  id: string;
  canAct: boolean;
  /** Mounted pages follow the conversation's events; standalone ones read it again now and then. */
  mode: StudioInfo["mode"] | undefined;
}) {
  const [detail, setDetail] = useState<ConversationDetail | undefined>();
  // Loaded in pages of PAGE from the start; "Show more" appends the next one.
  const [messages, setMessages] = useState<{ list: Message[]; total: number } | undefined>();
  const [error, setError] = useState<string | undefined>();
  const [fixture, setFixture] = useState<string | undefined>();

  /** Reloads the record and the messages from `offset` (a page boundary) on, keeping those before. */
  const load = useCallback(
    async (offset: number) => {
      try {
        const [next, page] = await Promise.all([api.conversation(id), api.messages(id, offset, PAGE)]);
        setDetail(next);
        setMessages((old) => ({ list: (old?.list ?? []).slice(0, offset).concat(page.messages), total: page.total }));
        setError(undefined);
      } catch (e) {
        setError((e as Error).message);
      }
    },
    [id],
  );
  const loaded = messages?.list.length ?? 0;
  // While live, the last loaded page again (new messages land at the end).
  const refresh = useCallback(() => load(Math.floor(Math.max(0, loaded - 1) / PAGE) * PAGE), [load, loaded]);

  useEffect(() => {
    setMessages(undefined);
    void load(0);
  }, [load]);
  const live = detail?.conversation.status === "running";
  const streaming = useLiveConversation(id, mode, refresh);

  if (error && !detail)
    return (
      <p className="error" role="alert">
        {error}
      </p>
    );
  if (!detail || !messages) return <p className="muted">Loading…</p>;
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
          <Timeline messages={messages.list} offset={0} traces={detail.traces} />
          {streaming && (
            <div className="message message-agent streaming" data-testid="streaming">
              <div className="message-head">
                <strong>agent</strong> <span className="muted">writing…</span>
              </div>
              <ClippedText text={streaming} />
            </div>
          )}
          {messages.total > loaded && (
            <button type="button" onClick={() => void load(loaded)}>
              Show {Math.min(PAGE, messages.total - loaded)} more of {messages.total - loaded}
            </button>
          )}
        </div>
        <aside>
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
