/** A plain AI SDK useChat page: nothing in it knows about Glove but the transport it is given. */
import { useState } from "react";
import { useChat } from "@ai-sdk/react";
import {
  isToolUIPart,
  lastAssistantMessageIsCompleteWithApprovalResponses,
  type ChatTransport,
  type UIMessage,
} from "ai";
import { ToolPart } from "./tool-part.js";

export interface ChatProps {
  id: string;
  initialMessages: UIMessage[];
  transport: ChatTransport<UIMessage>;
}

export function Chat({ id, initialMessages, transport }: ChatProps) {
  const { messages, sendMessage, regenerate, status, stop, error, addToolApprovalResponse } = useChat({
    id,
    messages: initialMessages,
    resume: true,
    transport,
    sendAutomaticallyWhen: lastAssistantMessageIsCompleteWithApprovalResponses,
  });
  const [input, setInput] = useState("");
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
          </li>
        ))}
      </ol>
      {error && <p role="alert">{error.message}</p>}
      <form
        onSubmit={(event) => {
          event.preventDefault();
          if (!input.trim()) return;
          void sendMessage({ text: input });
          setInput("");
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
