import { GloveError } from "../errors.js";

/**
 * Why a branch operation was refused: `not_found` (no such message on the active branch, or in
 * the conversation for a switch), `invalid` (not a user message; nothing to regenerate),
 * `waiting` (a question still waits for a person: answer or withdraw it first), `conflict`
 * (another writer changed the branches first), `busy` (a turn is running).
 */
export type BranchRefusal = "not_found" | "invalid" | "waiting" | "conflict" | "busy";

/** A regenerate, edit or switch was refused; nothing changed. Test with `BranchError.isInstance`. */
export class BranchError extends GloveError {
  readonly reason: BranchRefusal;
  /** The message the operation named, when it named one. */
  readonly messageId: string | undefined;

  constructor(reason: BranchRefusal, message: string, messageId?: string) {
    super(message, { code: "GLOVE_BRANCH_REFUSED" });
    this.name = "BranchError";
    this.reason = reason;
    this.messageId = messageId;
  }

  static override isInstance(error: unknown): error is BranchError {
    return GloveError.isInstance(error) && error.code === "GLOVE_BRANCH_REFUSED";
  }
}
