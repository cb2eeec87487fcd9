import { useEffect, useState } from "react";
import { api, type ConversationDetail, type Message, type StudioAuditEntry } from "../api.js";
import { when } from "../parts/format.js";

/** What the playground is doing with a message the page's rows pointed at. */
export type Pending = { kind: "edit"; message: Message & { id: string } } | { kind: "fork"; at: number } | undefined;

/** A row's playground buttons: edit (a user's own message) and fork from here. */
export function RowActions({
  message,
  index,
  onPick,
}: {
  message: Message;
  index: number;
  onPick: (pending: Pending) => void;
}) {
  const editable = message.sender === "user" && !message.tool_results?.length && typeof message.id === "string";
  return (
    <span className="row-actions">
      {editable && (
        <button
          type="button"
          data-testid="edit-message"
          onClick={() => onPick({ kind: "edit", message: message as Message & { id: string } })}
        >
          Edit
        </button>
      )}
      <button type="button" data-testid="fork-here" onClick={() => onPick({ kind: "fork", at: index })}>
        Fork from here
      </button>
    </span>
  );
}

/**
 * The mounted playground under a conversation's timeline: send a message, regenerate, finish an edit
 * or a fork picked on a row, switch to a branch set aside. Each goes through the server's turns; the
 * page's live stream shows the turn as it runs.
 */
export function Playground({
  id,
  detail,
  variants,
  pending,
  onPick,
  onChange,
}: {
  id: string;
  detail: ConversationDetail;
  variants: string[];
  pending: Pending;
  onPick: (pending: Pending) => void;
  onChange: () => void;
}) {
  const [text, setText] = useState("");
  const [variant, setVariant] = useState("");
  const [error, setError] = useState<string | undefined>();
  useEffect(() => {
    if (pending?.kind === "edit") setText(pending.message.text);
  }, [pending]);
  const run = (action: () => Promise<unknown>) => {
    setError(undefined);
    action().then(
      () => onChange(),
      (e: Error) => setError(e.message),
    );
  };
  const submit = () => {
    if (pending?.kind === "edit") {
      const messageId = pending.message.id;
      run(async () => {
        await api.edit(id, messageId, text);
        onPick(undefined);
        setText("");
      });
    } else {
      run(async () => {
        await api.send(id, text);
        setText("");
      });
    }
  };
  const fork = (at: number) =>
    run(async () => {
      const made = await api.fork(id, at, variant === "" ? undefined : variant);
      onPick(undefined);
      location.hash = `#/compare/${encodeURIComponent(id)}/${encodeURIComponent(made.id)}`;
    });
  const busy = detail.conversation.status === "running";
  return (
    <section className="panel playground" data-testid="playground">
      <h3>Try it again</h3>
      {error && (
        <p className="error" role="alert" data-testid="playground-error">
          {error}
        </p>
      )}
      {pending?.kind === "fork" ? (
        <div className="fork-form">
          <span>Fork messages 1–{pending.at + 1} into a new conversation of yours, on</span>{" "}
          <select value={variant} onChange={(e) => setVariant(e.target.value)} data-testid="fork-variant">
            <option value="">{detail.conversation.agent} (the same agent)</option>
            {variants.map((v) => (
              <option key={v} value={v}>
                {v}
              </option>
            ))}
          </select>{" "}
          <button type="button" data-testid="fork-confirm" onClick={() => fork(pending.at)}>
            Fork
          </button>{" "}
          <button type="button" onClick={() => onPick(undefined)}>
            Cancel
          </button>
        </div>
      ) : (
        <form
          className="composer"
          onSubmit={(e) => {
            e.preventDefault();
            submit();
          }}
        >
          {pending?.kind === "edit" && (
            <p className="muted">Editing a message: what followed it stays on its branch.</p>
          )}
          <textarea
            value={text}
            onChange={(e) => setText(e.target.value)}
            rows={3}
            data-testid="composer"
            aria-label="Message"
          />
          <div className="actions">
            <button type="submit" disabled={busy || text.trim() === ""} data-testid="send">
              {pending?.kind === "edit" ? "Save edit and run" : "Send"}
            </button>
            {pending?.kind === "edit" ? (
              <button type="button" onClick={() => onPick(undefined)}>
                Cancel
              </button>
            ) : (
              <button
                type="button"
                disabled={busy}
                data-testid="regenerate"
                onClick={() => run(() => api.regenerate(id))}
              >
                Regenerate
              </button>
            )}
          </div>
        </form>
      )}
      {detail.branches.length > 0 && (
        <ul className="branch-switch">
          {detail.branches.map((b) => {
            const first = b.messages[0];
            if (!first?.id) return null;
            const firstId = first.id;
            return (
              <li key={b.id}>
                <button
                  type="button"
                  disabled={busy}
                  data-testid="switch-branch"
                  onClick={() => run(() => api.switchBranch(id, firstId))}
                >
                  Switch to the branch after message {b.at}
                </button>{" "}
                <span className="muted">{first.text.slice(0, 80)}</span>
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}

const ACTION_NAMES: Record<StudioAuditEntry["action"], string> = {
  message: "sent a message",
  regenerate: "regenerated",
  edit: "edited a message",
  switch_branch: "switched branch",
  fork: "forked",
  answer: "answered a question",
  abort: "aborted a turn",
};

/** The audit records of studio actions on this conversation (when its owner is someone else). */
export function AuditPanel({ id, version }: { id: string; version: unknown }) {
  const [entries, setEntries] = useState<StudioAuditEntry[] | undefined>();
  useEffect(() => {
    void api.audit(id).then(
      (page) => setEntries(page.entries),
      () => setEntries(undefined),
    );
  }, [id, version]);
  if (!entries || entries.length === 0) return null;
  return (
    <section className="panel" data-testid="audit">
      <h3>Audit</h3>
      <ul>
        {entries.map((e, i) => (
          <li key={`${e.at}-${i}`} data-testid="audit-entry">
            {when(e.at)} · <strong>{e.actor}</strong> {ACTION_NAMES[e.action] ?? e.action}
            {e.action === "fork" && e.target ? (
              <>
                {" "}
                into <a href={`#/c/${encodeURIComponent(e.target)}`}>{e.target}</a>
              </>
            ) : null}
          </li>
        ))}
      </ul>
    </section>
  );
}
