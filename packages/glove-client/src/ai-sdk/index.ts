/**
 * glove-client/ai-sdk — the AI SDK's `useChat` on a glove-server: change the page's transport to
 * `new GloveChatTransport({ server })` and the rest of the page stays as it is.
 */
export { GloveChatTransport } from "./glove-chat-transport.js";
export type { GloveChatTransportOptions } from "./glove-chat-transport.js";
export { ChatTransportError } from "./chat-transport-error.js";
export type { ChatTransportErrorCode } from "./chat-transport-error.js";
export { ChunkMapper, SLOT_DATA_PART } from "./chunk-mapper.js";
export type { MappedEvent } from "./chunk-mapper.js";
export { toUIMessages } from "./ui-messages.js";
export { ServerRequestError } from "../errors.js";
export type { HeadersOption, ServerConnectionOptions } from "../server/server-api.js";
