// A newcomer's AI SDK page moved onto glove-server: the useChat call as the docs show it, the
// transport changed, fed values that may be undefined (env, URL), under exactOptionalPropertyTypes.
import { useChat } from "@ai-sdk/react";
import { lastAssistantMessageIsCompleteWithApprovalResponses, type UIMessage } from "ai";
import { ChatTransportError, GloveChatTransport, ServerRequestError } from "glove-react/ai-sdk";

const maybe = (value?: string): string | undefined => value;

export const transport = new GloveChatTransport({
  server: "/api/glove",
  agent: maybe(),
  headers: undefined,
  credentials: undefined,
});

export function useGloveChat(id: string, initialMessages: UIMessage[]) {
  return useChat({
    id,
    messages: initialMessages,
    resume: true,
    transport,
    sendAutomaticallyWhen: lastAssistantMessageIsCompleteWithApprovalResponses,
  });
}

/** What a page shows for a failed send: the server's refusal (409 while a prompt waits), or the transport's. */
export function describeError(error: unknown): string {
  if (ServerRequestError.isInstance(error)) return `${error.status} ${error.code}: ${error.message}`;
  if (ChatTransportError.isInstance(error)) return error.code;
  return String(error);
}
