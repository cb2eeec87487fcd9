import { useId, useState, type ReactNode } from "react";
import type { PermissionRequestInput } from "glove-core";
import type { SlotRenderProps } from "../types/tool.js";
import type { AgentTextEntry, CompactionEntry, UserEntry, ConnectionState } from "glove-client";

function json(value: unknown): string {
  try {
    return JSON.stringify(value, null, 2) ?? String(value);
  } catch {
    return String(value);
  }
}

/**
 * The default `permission_request` renderer: which tool wants to run with what, Allow / Deny and
 * "remember", as a labelled group so assistive technology announces it as one question.
 */
export function PermissionPrompt({
  props,
  resolve,
  status,
}: SlotRenderProps<PermissionRequestInput, unknown>): ReactNode {
  const [remember, setRemember] = useState(false);
  const id = useId();
  const tool = props?.tool_name ?? "a tool";
  const pending = status === "pending";
  return (
    <div role="group" aria-labelledby={`${id}-title`} data-glove-role="permission-request" data-glove-status={status}>
      <p id={`${id}-title`}>
        Allow <strong>{tool}</strong> to run?
      </p>
      <details>
        <summary>Details</summary>
        <pre>{json(props?.input)}</pre>
      </details>
      {pending ? (
        <>
          <label htmlFor={`${id}-remember`}>
            <input
              id={`${id}-remember`}
              type="checkbox"
              checked={remember}
              onChange={(event) => setRemember(event.target.checked)}
            />{" "}
            Remember my choice
          </label>
          <button type="button" onClick={() => resolve({ granted: true, remember })}>
            Allow
          </button>
          <button type="button" onClick={() => resolve({ granted: false, remember })}>
            Deny
          </button>
        </>
      ) : (
        <p role="status">{status === "resolved" ? "Answered." : "No longer waiting."}</p>
      )}
    </div>
  );
}

/** Shown when no renderer has the slot's name: visible, names the renderer, and lets the user dismiss it. */
export function UnknownRenderer({ slot, reject, status }: SlotRenderProps): ReactNode {
  return (
    <div role="alert" data-glove-role="unknown-renderer">
      <p>
        No renderer named <code>{slot.renderer}</code>
        {slot.toolName && slot.toolName !== slot.renderer ? ` (pushed by ${slot.toolName})` : ""}. Add a tool with a
        render function, or a renderer of that name.
      </p>
      <pre>{json(slot.input)}</pre>
      {status === "pending" ? (
        <button type="button" onClick={() => reject(`no renderer named ${slot.renderer}`)}>
          Dismiss
        </button>
      ) : null}
    </div>
  );
}

/** What `renderMessage` receives: a user or agent entry and where it sits in the timeline. */
export interface MessageRenderProps {
  entry: UserEntry | AgentTextEntry;
  index: number;
  isLast: boolean;
}

/** The plain message row `Render` uses when you pass no `renderMessage`; failed sends get a Retry button. */
export function DefaultMessage({ entry }: MessageRenderProps): ReactNode {
  if (entry.kind === "user") {
    return (
      <div data-glove-role="user" data-glove-status={entry.status}>
        {entry.text}
        {entry.status === "failed" ? (
          <span role="alert">
            {" "}
            Not sent{entry.error ? `: ${entry.error.message}` : ""}.{" "}
            {entry.retry ? (
              <button type="button" onClick={entry.retry}>
                Retry
              </button>
            ) : null}
          </span>
        ) : null}
      </div>
    );
  }
  return (
    <div data-glove-role="agent" data-glove-interrupted={entry.interrupted ? "true" : undefined}>
      {entry.text}
    </div>
  );
}

/** What `renderStreaming` receives: the text the model is still writing. */
export interface StreamingRenderProps {
  text: string;
}

/** The streaming text row `Render` uses by default, announced politely to screen readers. */
export function DefaultStreaming({ text }: StreamingRenderProps): ReactNode {
  return (
    <div data-glove-role="agent" data-glove-streaming="true" aria-live="polite">
      {text}
    </div>
  );
}

/** Marks where the history was summarised, with the summary folded away. */
export function CompactionMarker({ entry }: { entry: CompactionEntry }): ReactNode {
  return (
    <details role="separator" data-glove-role="compaction">
      <summary>Earlier messages were summarised</summary>
      <p>{entry.summary}</p>
    </details>
  );
}

/** What `renderInput` receives: send, abort, whether the agent is busy and the connection state. */
export interface InputRenderProps {
  send: (text: string) => void;
  busy: boolean;
  abort: () => void;
  connection: ConnectionState;
}

/** An uncontrolled form: typing never re-renders the transcript. Sending while busy queues. */
export function DefaultInput({ send, busy, abort }: InputRenderProps): ReactNode {
  const id = useId();
  return (
    <form
      data-glove-role="input"
      onSubmit={(event) => {
        event.preventDefault();
        const field = event.currentTarget.elements.namedItem("message") as HTMLInputElement | null;
        const text = field?.value.trim();
        if (!field || !text) return;
        send(text);
        field.value = "";
      }}
    >
      <label htmlFor={id}>Message</label>
      <input id={id} name="message" autoComplete="off" placeholder="Type a message…" />
      <button type="submit">Send</button>
      {busy ? (
        <button type="button" onClick={abort}>
          Stop
        </button>
      ) : null}
    </form>
  );
}
