import { GloveError } from "glove-core/errors";

/** Why the transport could not turn useChat's request into a Glove one. */
export type ChatTransportErrorCode =
  | "GLOVE_CHAT_EMPTY_MESSAGE"
  | "GLOVE_CHAT_NOTHING_TO_SEND"
  | "GLOVE_CHAT_UNKNOWN_MESSAGE"
  | "GLOVE_CHAT_WAITING_FOR_ANSWER"
  | "GLOVE_CHAT_BUSY";

/**
 * useChat asked for something this transport cannot send (an empty message, a message the
 * conversation does not have, an edit or a regenerate while the reply waits for a person or is
 * still being written). Nothing was changed on the server: the page can load the chat's messages
 * again (`loadMessages`) to undo what useChat dropped for the request.
 */
export class ChatTransportError extends GloveError {
  constructor(code: ChatTransportErrorCode, message: string, cause?: unknown) {
    super(message, cause === undefined ? { code } : { code, cause });
    this.name = "ChatTransportError";
  }

  static override isInstance(error: unknown): error is ChatTransportError {
    return GloveError.isInstance(error) && error.name === "ChatTransportError";
  }
}
