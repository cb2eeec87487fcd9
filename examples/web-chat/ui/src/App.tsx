/**
 * The Glove Bistro web chat: glove-react in server mode, attached to the example's glove-server
 * under /api (same origin; the demo cookie identifies the browser). The conversation id lives in
 * the URL (?c=…), so a reload resumes the same conversation, pending forms included.
 */
import { useCallback, useEffect, useRef, useState, type FormEvent, type ReactNode } from "react";
import {
  Render,
  useGlove,
  type ConnectionState,
  type MessageRenderProps,
  type StreamingRenderProps,
  type ToolStatusRenderProps,
} from "glove-react";
import type { InboxItem, Task } from "glove-core";
import { SUGGESTIONS } from "../../src/shared.js";
import { BranchActions, BranchPicker, EditableText, RegenerateButton } from "./branching.js";
import { QUIET_TOOLS, renderers, tools } from "./renderers.js";

const API = "/api";

interface ConversationSummary {
  id: string;
  title: string | null;
  updatedAt: string;
}

function conversationFromUrl(): string | undefined {
  return new URLSearchParams(window.location.search).get("c") ?? undefined;
}

function putInUrl(id: string | null): void {
  const url = new URL(window.location.href);
  if (id) url.searchParams.set("c", id);
  else url.searchParams.delete("c");
  window.history.replaceState(null, "", url);
}

/** The caller's conversations (GET /api/conversations), fetched again whenever `key` changes. */
function useConversations(key: string): { list: ConversationSummary[] | null; failed: boolean } {
  const [list, setList] = useState<ConversationSummary[] | null>(null);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    let live = true;
    fetch(`${API}/conversations?limit=50`, { credentials: "same-origin" })
      .then(async (response) => {
        if (!response.ok) throw new Error(String(response.status));
        const body = (await response.json()) as { conversations: ConversationSummary[] };
        if (!live) return;
        setList(body.conversations);
        setFailed(false);
      })
      .catch(() => {
        if (live) setFailed(true);
      });
    return () => {
      live = false;
    };
  }, [key]);
  return { list, failed };
}

const CONNECTION_LABEL: Record<ConnectionState, string> = {
  idle: "Ready",
  connecting: "Connecting…",
  open: "Live",
  reconnecting: "Reconnecting…",
  offline: "Offline, retrying…",
};

function Message({ entry, isLast }: MessageRenderProps): ReactNode {
  if (entry.kind === "user") {
    return (
      <div className="bubble user" data-glove-role="user" data-glove-status={entry.status}>
        {entry.messageId !== undefined ? <EditableText messageId={entry.messageId} text={entry.text} /> : entry.text}
        <BranchPicker branch={entry.branch} />
        {entry.status === "queued" || entry.status === "sending" ? (
          <span className="meta"> · {entry.status === "queued" ? "waiting" : "sending"}</span>
        ) : null}
        {entry.status === "failed" ? (
          <span role="alert" className="meta">
            {" "}
            · not sent{entry.error ? `: ${entry.error.message}` : ""}{" "}
            {entry.retry ? (
              <button type="button" className="link" onClick={entry.retry}>
                Retry
              </button>
            ) : null}
          </span>
        ) : null}
      </div>
    );
  }
  return (
    <div
      className="bubble agent"
      data-glove-role="agent"
      data-glove-interrupted={entry.interrupted ? "true" : undefined}
    >
      {entry.text}
      {entry.interrupted ? <span className="meta"> · stopped</span> : null}
      <BranchPicker branch={entry.branch} />
      {isLast && !entry.interrupted ? <RegenerateButton /> : null}
    </div>
  );
}

function Streaming({ text }: StreamingRenderProps): ReactNode {
  return (
    <div className="bubble agent streaming" data-glove-role="agent" data-glove-streaming="true" aria-live="polite">
      {text}
    </div>
  );
}

const STATUS_MARK = { running: "…", success: "✓", error: "✗", aborted: "■" } as const;

function ToolLine({ entry }: ToolStatusRenderProps): ReactNode {
  if (QUIET_TOOLS.has(entry.name)) return null;
  return (
    <div className="tool-line" data-call-id={entry.id} data-tool={entry.name} data-tool-status={entry.status}>
      <span aria-hidden="true">{STATUS_MARK[entry.status]}</span> {entry.name}
      {entry.status === "error" || entry.status === "aborted" ? (
        <span className="meta"> · {entry.output ?? entry.status}</span>
      ) : null}
    </div>
  );
}

function Composer({
  send,
  busy,
  abort,
}: {
  send: (text: string) => void;
  busy: boolean;
  abort: () => void;
}): ReactNode {
  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const field = event.currentTarget.elements.namedItem("message") as HTMLInputElement | null;
    const text = field?.value.trim();
    if (!field || !text) return;
    send(text);
    field.value = "";
  };
  return (
    <form className="composer" data-glove-role="input" onSubmit={onSubmit}>
      <input name="message" aria-label="Message" placeholder="Ask Glove Bistro…" autoComplete="off" />
      <button type="submit" className="primary">
        Send
      </button>
      {busy ? (
        <button type="button" className="stop" onClick={abort}>
          Stop
        </button>
      ) : null}
    </form>
  );
}

const TASK_MARK = { pending: "○", in_progress: "◐", completed: "●" } as const;

function Tasks({ tasks }: { tasks: Task[] }): ReactNode {
  return (
    <section className="panel" aria-label="Tasks" data-testid="tasks">
      <h2>Tasks</h2>
      {tasks.length ? (
        <ol className="tasks">
          {tasks.map((task) => (
            <li key={task.id} data-task-status={task.status}>
              <span aria-hidden="true">{TASK_MARK[task.status]}</span>{" "}
              {task.status === "in_progress" ? task.activeForm : task.content}
            </li>
          ))}
        </ol>
      ) : (
        <p className="empty">No tasks yet.</p>
      )}
    </section>
  );
}

function Inbox({ items }: { items: InboxItem[] }): ReactNode {
  return (
    <section className="panel" aria-label="Inbox" data-testid="inbox">
      <h2>Inbox</h2>
      {items.length ? (
        <ul className="inbox">
          {items.map((item) => (
            <li key={item.id} data-inbox-status={item.status}>
              <strong>{item.tag}</strong> <span className="meta">· {item.status}</span>
              <p>{item.request}</p>
              {item.response ? <p className="note">{item.response}</p> : null}
            </li>
          ))}
        </ul>
      ) : (
        <p className="empty">Nothing waiting.</p>
      )}
    </section>
  );
}

export function App(): ReactNode {
  const [conversationId, setConversationId] = useState(conversationFromUrl);
  const onConversationChange = useCallback((id: string | null) => {
    setConversationId(id ?? undefined);
    putInUrl(id);
  }, []);
  const glove = useGlove({
    server: API,
    conversationId,
    onConversationChange,
    tools,
    renderers,
    credentials: "same-origin",
    // A demo: come back quickly after a restart of the server.
    backoff: { initialMs: 250, maxMs: 3000 },
  });
  const { timeline, busy, connection, error, tasks, inbox, stats, sessionId, streamingText } = glove;
  const { list, failed } = useConversations(`${sessionId ?? ""}|${busy}|${connection === "open"}`);
  // A question waiting for the user keeps its turn stoppable, also once the turn left the server's
  // memory ("waiting", e.g. after a restart): Stop withdraws the question.
  const asking = glove.slots.some((slot) => slot.mode === "wait" && slot.status === "pending");

  const bottom = useRef<HTMLDivElement>(null);
  useEffect(() => {
    bottom.current?.scrollIntoView({ block: "end" });
  }, [timeline, streamingText, glove.slots]);

  const empty = timeline.length === 0 && !streamingText;
  return (
    <div className="app">
      <header className="top">
        <h1>Glove Bistro</h1>
        <span className="connection" data-testid="connection" data-state={connection} role="status">
          {CONNECTION_LABEL[connection]}
        </span>
      </header>
      <nav className="conversations" aria-label="Conversations">
        <button type="button" className="primary new" onClick={() => glove.newConversation()}>
          New conversation
        </button>
        {failed ? <p className="empty">Could not load the list.</p> : null}
        <ul>
          {(list ?? []).map((c) => (
            <li key={c.id}>
              <button
                type="button"
                className="conversation"
                aria-current={c.id === sessionId ? "page" : undefined}
                data-conversation-id={c.id}
                onClick={() => glove.switchConversation(c.id)}
              >
                {c.title ?? "New conversation"}
              </button>
            </li>
          ))}
        </ul>
      </nav>
      <main className="chat">
        <div className="transcript" data-testid="transcript">
          {empty ? (
            <div className="welcome">
              <p>Ask the bistro's assistant something, or try one of these:</p>
              <div className="actions">
                {SUGGESTIONS.map((s) => (
                  <button key={s} type="button" onClick={() => glove.sendMessage(s)}>
                    {s}
                  </button>
                ))}
              </div>
            </div>
          ) : null}
          <BranchActions.Provider value={glove}>
            <Render
              glove={glove}
              renderMessage={Message}
              renderStreaming={Streaming}
              renderToolStatus={ToolLine}
              renderInput={null}
              className="timeline"
            />
          </BranchActions.Provider>
          {error ? (
            <p role="alert" className="banner" data-testid="error">
              {error.message}
            </p>
          ) : null}
          <div ref={bottom} />
        </div>
        <Composer send={glove.sendMessage} busy={busy || asking} abort={() => void glove.abort()} />
      </main>
      <aside className="side">
        <Tasks tasks={tasks} />
        <Inbox items={inbox} />
        <p className="stats meta">
          {stats.turns} model calls · {stats.tokens_in} tokens in · {stats.tokens_out} out
        </p>
      </aside>
    </div>
  );
}
