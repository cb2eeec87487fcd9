import { useState } from "react";
import { api, type ConversationDetail } from "../api.js";
import { JsonBlock } from "../parts/clipped-text.js";
import { when } from "../parts/format.js";
import { StatusBadge } from "../parts/status-badge.js";

type Question = ConversationDetail["questions"][number];

function AnswerForm({
  conversationId,
  question,
  onDone,
}: {
  conversationId: string;
  question: Question;
  onDone: () => void;
}) {
  const [text, setText] = useState("");
  const [error, setError] = useState<string | undefined>();
  const send = async (kind: "resolve" | "reject") => {
    let value: unknown = text;
    try {
      value = text.trim() === "" ? null : JSON.parse(text);
    } catch {
      // Not JSON: sent as the string typed.
    }
    try {
      await api.answer(
        conversationId,
        question.id,
        kind === "resolve" ? { resolve: value } : { reject: value ?? "Declined in Glove Studio" },
      );
      onDone();
    } catch (e) {
      setError((e as Error).message);
    }
  };
  return (
    <div className="answer">
      <label>
        Answer (JSON, or text)
        <textarea
          value={text}
          onChange={(e) => setText(e.target.value)}
          rows={3}
          aria-label={`Answer to ${question.id}`}
        />
      </label>
      <button type="button" onClick={() => void send("resolve")}>
        Answer
      </button>
      <button type="button" onClick={() => void send("reject")}>
        Reject
      </button>
      {error && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
    </div>
  );
}

/** Questions the agent asked a person (display slots that wait), their answers, and a form for pending ones. */
export function Questions({
  conversationId,
  questions,
  canAct,
  onChange,
}: {
  conversationId: string;
  questions: Question[];
  canAct: boolean;
  onChange: () => void;
}) {
  if (questions.length === 0) return null;
  return (
    <section className="panel" data-testid="questions">
      <h3>Questions for a person</h3>
      {questions.map((q) => (
        <div key={q.id} className="question" data-testid="question" data-status={q.status}>
          <div className="tool-head">
            <strong>{q.renderer}</strong>{" "}
            <span className="muted">
              asked by {q.toolName} · {when(q.createdAt)}
            </span>{" "}
            <StatusBadge status={q.status} />
          </div>
          <JsonBlock value={q.input} />
          {q.status !== "pending" && (
            <div>
              <h4>Answer</h4>
              <JsonBlock value={q.answer} />
            </div>
          )}
          {q.status === "pending" &&
            (canAct ? (
              <AnswerForm conversationId={conversationId} question={q} onDone={onChange} />
            ) : (
              <p className="muted">
                Answer it from your app, or open the studio mounted in your server to answer here.
              </p>
            ))}
        </div>
      ))}
    </section>
  );
}
