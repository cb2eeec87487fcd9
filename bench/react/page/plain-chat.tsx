/**
 * The baseline: a minimal hand-written chat. The history in useState, the streaming text in
 * useState, one setState per token.
 */
import { useEffect, useState, type ReactNode } from "react";
import { historyText, streamTokens } from "./tokens.js";

interface ChatMessage {
  id: number;
  sender: "user" | "agent";
  text: string;
}

export interface ChatControls {
  /** Starts the stream; resolves when the whole answer is committed to the DOM. */
  start(): Promise<void>;
}

export function PlainChat({
  entries,
  tokens,
  onReady,
}: {
  entries: number;
  tokens: number;
  onReady: (controls: ChatControls) => void;
}): ReactNode {
  const [messages, setMessages] = useState<ChatMessage[]>(() =>
    Array.from({ length: entries }, (_, i) => ({
      id: i,
      sender: i % 2 === 0 ? "user" : "agent",
      text: historyText(i),
    })),
  );
  const [streaming, setStreaming] = useState("");
  const [done, setDone] = useState<(() => void) | null>(null);

  useEffect(() => {
    onReady({
      start: () =>
        new Promise<void>((resolve) => {
          setMessages((m) => [...m, { id: m.length, sender: "user", text: "What about tonight?" }]);
          let text = "";
          void streamTokens(tokens, (token) => {
            text += token;
            setStreaming(text);
          }).then(() => {
            setStreaming("");
            setMessages((m) => [...m, { id: m.length, sender: "agent", text }]);
            setDone(() => resolve);
          });
        }),
    });
  }, [onReady, tokens]);

  // The last commit: the answer is in the history.
  useEffect(() => {
    if (done) done();
  }, [done]);

  return (
    <div className="chat">
      {messages.map((m) => (
        <div key={m.id} className={m.sender}>
          {m.text}
        </div>
      ))}
      {streaming ? <div className="agent streaming">{streaming}</div> : null}
    </div>
  );
}
