import { useEffect, useState } from "react";
import { api, type StudioInfo } from "./api.js";
import { ConversationList } from "./views/conversation-list.js";
import { CompareView } from "./views/compare-view.js";
import { ConversationView } from "./views/conversation-view.js";
import { TurnWaterfall } from "./views/turn-waterfall.js";

/**
 * The views by hash: "#/" the list, "#/c/<id>" one conversation, "#/c/<id>/t/<turnId>" one turn,
 * "#/c/<id>/t/<turnId>/call/<callId>" one turn with a model call's request open, "#/compare/<a>/<b>"
 * two conversations side by side (a fork and its original).
 */
function parseHash(
  hash: string,
):
  | { view: "list" }
  | { view: "conversation"; id: string }
  | { view: "compare"; left: string; right: string }
  | { view: "turn"; id: string; turnId: string; callId?: string | undefined } {
  const parts = hash
    .replace(/^#\/?/, "")
    .split("/")
    .map((p) => decodeURIComponent(p));
  if (parts[0] === "c" && parts[1] && parts[2] === "t" && parts[3])
    return { view: "turn", id: parts[1], turnId: parts[3], callId: parts[4] === "call" ? parts[5] : undefined };
  if (parts[0] === "c" && parts[1]) return { view: "conversation", id: parts[1] };
  if (parts[0] === "compare" && parts[1] && parts[2]) return { view: "compare", left: parts[1], right: parts[2] };
  return { view: "list" };
}

export function App() {
  const [hash, setHash] = useState(location.hash);
  const [info, setInfo] = useState<StudioInfo | undefined>();
  useEffect(() => {
    const onHash = () => setHash(location.hash);
    addEventListener("hashchange", onHash);
    void api.info().then(setInfo, () => undefined);
    return () => removeEventListener("hashchange", onHash);
  }, []);
  const route = parseHash(hash);
  return (
    <div className="app">
      <header className="top">
        <a href="#/" className="brand">
          Glove Studio
        </a>
        {info && (
          <span className="muted" data-testid="source">
            {info.mode === "mounted" ? "mounted in the server" : "standalone, read-only"} · {info.source}
          </span>
        )}
      </header>
      <main>
        {route.view === "list" && <ConversationList />}
        {route.view === "conversation" && (
          <ConversationView id={route.id} canAct={info?.canAct ?? false} mode={info?.mode} variants={info?.variants} />
        )}
        {route.view === "compare" && <CompareView left={route.left} right={route.right} mode={info?.mode} />}
        {route.view === "turn" && <TurnWaterfall id={route.id} turnId={route.turnId} callId={route.callId} />}
      </main>
    </div>
  );
}
