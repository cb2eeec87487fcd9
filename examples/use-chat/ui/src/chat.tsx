/**
 * A plain AI SDK useChat page: nothing in it knows about Glove but the transport it is given and
 * that transport's refusals (`ChatTransportError`), after which it shows the server's history again.
 */
import { useState } from "react";
import { useChat } from "@ai-sdk/react";
import {
  isToolUIPart,
  lastAssistantMessageIsCompleteWithApprovalResponses,
  type ChatTransport,
  type UIMessage,
} from "ai";
import { ChatTransportError } from "glove-react/ai-sdk";
import { ToolPart } from "./tool-part.js";

export interface ChatProps {
  id: string;
  initialMessages: UIMessage[];
  transport: ChatTransport<UIMessage>;
  /** The chat's history as the server holds it (the transport's `loadMessages`). */
  loadMessages(): Promise<UIMessage[]>;
}

export function Chat({ id, initialMessages, transport, loadMessages }: ChatProps) {
  const { messages, setMessages, sendMessage, regenerate, status, stop, error, addToolApprovalResponse } = useChat({
    id,
    messages: initialMessages,
    resume: true,
    transport,
    sendAutomaticallyWhen: lastAssistantMessageIsCompleteWithApprovalResponses,
    // A refused edit or regenerate (e.g. while an approval waits) sent nothing, but useChat already
    // dropped the messages after the edited one: show the server's history, unchanged, again.
    onError: (refusal) => {
      // (Unreachable, the page keeps what it shows: the error already says what to do.)
      if (ChatTransportError.isInstance(refusal)) void loadMessages().then(setMessages, () => undefined);
    },
  });
  const [input, setInput] = useState("");
  /** The user message being edited: the form's next send replaces it (`sendMessage({ text, messageId })`). */
  const [editing, setEditing] = useState<string | undefined>();
  const busy = status === "submitted" || status === "streaming";
  return (
    <main>
      <h1>useChat on glove-server</h1>
      <ol data-testid="messages">
        {messages.map((message) => (
          <li key={message.id} data-role={message.role}>
            {message.parts.map((part, index) => {
              if (part.type === "text") return <p key={index}>{part.text}</p>;
              if (isToolUIPart(part))
                return (
                  <ToolPart
                    key={part.toolCallId}
                    part={part}
                    onApproval={(answer) => void addToolApprovalResponse(answer)}
                  />
                );
              return null;
            })}
            {message.role === "user" && status !== "submitted" && status !== "streaming" && (
              <button
                type="button"
                onClick={() => {
                  setEditing(message.id);
                  setInput(message.parts.flatMap((part) => (part.type === "text" ? [part.text] : [])).join("\n"));
                }}
              >
                Edit
              </button>
            )}
          </li>
        ))}
      </ol>
      {error && <p role="alert">{error.message}</p>}
      <form
        onSubmit={(event) => {
          event.preventDefault();
          if (!input.trim()) return;
          void sendMessage(editing ? { text: input, messageId: editing } : { text: input });
          setInput("");
          setEditing(undefined);
        }}
      >
        <input
          value={input}
          onChange={(event) => setInput(event.target.value)}
          placeholder="Ask for the weather in Paris, or to email ada"
          aria-label="Message"
        />
        <button type="submit" disabled={busy}>
          Send
        </button>
        {busy && (
          <button type="button" onClick={() => void stop()}>
            Stop
          </button>
        )}
        {status === "ready" && messages.at(-1)?.role === "assistant" && (
          <button type="button" onClick={() => void regenerate()}>
            Regenerate
          </button>
        )}
      </form>
      <p data-testid="status" data-status={status}>
        {status}
      </p>
    </main>
  );
}
