import { GloveError } from "glove-core/errors";

/** Why the transport could not turn useChat's request into a Glove one. */
export type ChatTransportErrorCode =
  "GLOVE_CHAT_EMPTY_MESSAGE" | "GLOVE_CHAT_NOTHING_TO_SEND" | "GLOVE_CHAT_UNKNOWN_MESSAGE";

/** useChat asked for something this transport cannot send (an empty message, a message the conversation does not have). */
export class ChatTransportError extends GloveError {
  constructor(code: ChatTransportErrorCode, message: string) {
    super(message, { code });
    this.name = "ChatTransportError";
  }

  static override isInstance(error: unknown): error is ChatTransportError {
    return GloveError.isInstance(error) && error.name === "ChatTransportError";
  }
}
