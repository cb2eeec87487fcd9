import { GloveError } from "glove-core";

/** A message append refused because a later writer took the conversation over. */
export class TurnFencedError extends GloveError {
  constructor(conversationId: string) {
    super(
      `Conversation ${conversationId}: another worker took this turn over; this worker's write was refused (nothing was stored). Its turn continues there.`,
      { code: "GLOVE_TURN_FENCED" },
    );
    this.name = "TurnFencedError";
  }

  static override isInstance(error: unknown): error is TurnFencedError {
    return GloveError.isInstance(error) && error.code === "GLOVE_TURN_FENCED";
  }
}
