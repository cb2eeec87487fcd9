import { useEffect, useState } from "react";
import { api, type ConversationDetail, type Message } from "../api.js";
import { useLiveConversation } from "../live/use-live.js";
import type { StudioInfo } from "../api.js";
import { StatusBadge } from "../parts/status-badge.js";
import { Timeline } from "./timeline.js";

/** Side by side shows the first messages of each; longer ones open on their own page. */
const SHOWN = 500;

interface Side {
  detail: ConversationDetail;
  messages: Message[];
}

async function load(id: string): Promise<Side> {
  const [detail, page] = await Promise.all([api.conversation(id), api.messages(id, 0, SHOWN)]);
  return { detail, messages: page.messages };
}

/** Where two message lists stop being the same (by sender and text), or undefined when one contains the other. */
function firstDifference(a: Message[], b: Message[]): number | undefined {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) if (a[i]!.sender !== b[i]!.sender || a[i]!.text !== b[i]!.text) return i;
  return undefined;
}

function Column({ side, label }: { side: Side; label: string }) {
  const c = side.detail.conversation;
  return (
    <div className="compare-column" data-testid="compare-column">
      <h3>
        {label}: <a href={`#/c/${encodeURIComponent(c.id)}`}>{c.title ?? "(untitled)"}</a>
      </h3>
      <p className="muted">
        <StatusBadge status={c.status} /> {c.agent} · {c.owner} · {side.detail.messageCount} messages
      </p>
      <Timeline messages={side.messages} offset={0} traces={side.detail.traces} />
    </div>
  );
}

/** Two conversations side by side — a fork and the one it came from — kept current as either runs. */
export function CompareView({
  left,
  right,
  mode,
}: {
  left: string;
  right: string;
  mode: StudioInfo["mode"] | undefined;
}) {
  const [sides, setSides] = useState<[Side, Side] | undefined>();
  const [error, setError] = useState<string | undefined>();
  const refresh = async () => {
    try {
      setSides(await Promise.all([load(left), load(right)]));
      setError(undefined);
    } catch (e) {
      setError((e as Error).message);
    }
  };
  useEffect(() => {
    void refresh();
  }, [left, right]);
  useLiveConversation(left, mode, refresh);
  useLiveConversation(right, mode, refresh);
  if (error)
    return (
      <p className="error" role="alert">
        {error}
      </p>
    );
  if (!sides) return <p className="muted">Loading…</p>;
  const differs = firstDifference(sides[0].messages, sides[1].messages);
  return (
    <section className="compare-view" data-testid="compare">
      <h2>Compare</h2>
      <p className="muted" data-testid="compare-summary">
        {differs === undefined
          ? `The same first ${Math.min(sides[0].messages.length, sides[1].messages.length)} messages.`
          : `The same up to message ${differs}; message ${differs + 1} differs.`}
      </p>
      <div className="compare-columns">
        <Column side={sides[0]} label="Original" />
        <Column side={sides[1]} label="Fork" />
      </div>
    </section>
  );
}
