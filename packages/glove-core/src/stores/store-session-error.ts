import { GloveError } from "../errors.js";

/**
 * Base of a persistent store's error: the message starts with the store and session
 * (`SqliteStore session "chat-7": …`) so an operator knows which conversation to look at.
 * Subclass it per store, so callers can still tell stores apart with `instanceof`.
 */
export class StoreSessionError extends GloveError {
  readonly sessionId: string;

  constructor(storeName: string, sessionId: string, detail: string, code = "GLOVE_STORE") {
    super(`${storeName} session "${sessionId}": ${detail}`, { code });
    this.name = `${storeName}Error`;
    this.sessionId = sessionId;
  }
}
