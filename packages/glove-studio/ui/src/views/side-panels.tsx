import type { ConversationDetail } from "../api.js";
import { ClippedText } from "../parts/clipped-text.js";
import { StatusBadge } from "../parts/status-badge.js";
import { Timeline } from "./timeline.js";

/** The conversation's task list and inbox items. */
export function SidePanels({ tasks, inbox }: Pick<ConversationDetail, "tasks" | "inbox">) {
  return (
    <>
      {tasks.length > 0 && (
        <section className="panel" data-testid="tasks">
          <h3>Tasks</h3>
          <ul>
            {tasks.map((t) => (
              <li key={t.id}>
                <StatusBadge status={t.status} /> <ClippedText text={t.content} />
              </li>
            ))}
          </ul>
        </section>
      )}
      {inbox.length > 0 && (
        <section className="panel" data-testid="inbox">
          <h3>Inbox</h3>
          <ul>
            {inbox.map((item) => (
              <li key={item.id}>
                <StatusBadge status={item.status} /> <strong>{item.tag}</strong> <ClippedText text={item.request} />
                {item.response !== null && <ClippedText text={`→ ${item.response}`} />}
              </li>
            ))}
          </ul>
        </section>
      )}
    </>
  );
}

/** Stretches set aside by regenerating or editing: where each left the active branch, and what it held. */
export function Branches({ branches, traces }: Pick<ConversationDetail, "branches" | "traces">) {
  if (branches.length === 0) return null;
  return (
    <section className="panel" data-testid="branches">
      <h3>Other branches</h3>
      {branches.map((b) => (
        <details key={b.id} data-testid="branch">
          <summary>
            after message {b.at} · {b.messages.length} messages
          </summary>
          <Timeline messages={b.messages} offset={b.at} traces={traces} />
        </details>
      ))}
    </section>
  );
}
