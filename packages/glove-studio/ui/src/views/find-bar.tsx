import { useState, type FormEvent } from "react";
import { api } from "../api.js";
import type { TimelineControls } from "./virtual-timeline.js";

/**
 * Find in a conversation and jump to its end. The timeline renders only the rows in view, so the
 * browser's own find cannot see the rest: the server searches every message, the page steps
 * through the rows found.
 */
export function FindBar({
  conversationId,
  controls,
  onFound,
}: {
  conversationId: string;
  controls: React.RefObject<TimelineControls | null>;
  onFound: (row: number | undefined) => void;
}) {
  const [text, setText] = useState("");
  const [found, setFound] = useState<{ matches: number[]; truncated: boolean; at: number } | undefined>();
  const [error, setError] = useState<string | undefined>();
  const show = (matches: number[], at: number) => {
    const row = matches[at];
    onFound(row);
    if (row !== undefined) controls.current?.scrollToIndex(row);
  };
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!text.trim()) return;
    try {
      const answer = await api.find(conversationId, text);
      setFound({ ...answer, at: 0 });
      setError(undefined);
      show(answer.matches, 0);
    } catch (e) {
      setError((e as Error).message);
    }
  };
  const step = (by: number) => {
    if (!found || found.matches.length === 0) return;
    const at = (found.at + by + found.matches.length) % found.matches.length;
    setFound({ ...found, at });
    show(found.matches, at);
  };
  return (
    <form className="find-bar" onSubmit={(e) => void submit(e)} aria-label="Find in conversation">
      <input
        type="search"
        aria-label="Find in conversation"
        placeholder="Find in conversation"
        value={text}
        onChange={(e) => setText(e.target.value)}
      />
      <button type="submit">Find</button>
      {found && (
        <>
          <span className="muted" data-testid="find-count">
            {found.matches.length === 0
              ? "no match"
              : `${found.at + 1} of ${found.matches.length}${found.truncated ? "+" : ""}`}
          </span>
          <button type="button" onClick={() => step(-1)} disabled={found.matches.length === 0}>
            Previous
          </button>
          <button type="button" onClick={() => step(1)} disabled={found.matches.length === 0}>
            Next
          </button>
        </>
      )}
      <button type="button" onClick={() => controls.current?.scrollToEnd()}>
        Jump to the end
      </button>
      {error && (
        <span className="error" role="alert">
          {error}
        </span>
      )}
    </form>
  );
}
