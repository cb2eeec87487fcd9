import type { ConversationDetail } from "../api.js";
import { ClippedText } from "../parts/clipped-text.js";
import { StatusBadge } from "../parts/status-badge.js";

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
