/**
 * glove-react/ai-sdk — the AI SDK's `useChat` on a glove-server: change the page's transport to
 * `new GloveChatTransport({ server })` and the rest of the page stays as it is. The transport is
 * glove-client's (`glove-client/ai-sdk`), which needs no React.
 */
export {
  GloveChatTransport,
  ChatTransportError,
  ChunkMapper,
  SLOT_DATA_PART,
  toUIMessages,
  ServerRequestError,
} from "glove-client/ai-sdk";
export type {
  GloveChatTransportOptions,
  ChatTransportErrorCode,
  MappedEvent,
  HeadersOption,
  ServerConnectionOptions,
} from "glove-client/ai-sdk";
