import { GloveError } from "glove-core";

/**
 * A table of Glove's that retention and the owner purge cannot attribute to a conversation, or
 * options they cannot run with. Nothing was deleted when it is thrown.
 */
export class RetentionError extends GloveError {
  constructor(message: string) {
    super(message, { code: "GLOVE_RETENTION" });
    this.name = "RetentionError";
  }

  static override isInstance(error: unknown): error is RetentionError {
    return GloveError.isInstance(error) && error.code === "GLOVE_RETENTION";
  }
}
