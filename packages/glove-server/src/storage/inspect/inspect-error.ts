import { GloveError } from "glove-core";

/** Codes of InspectError: a query or page argument that cannot be read, or a cursor that is not one of ours. */
export type InspectErrorCode = "GLOVE_INSPECT_INVALID" | "GLOVE_INSPECT_CURSOR";

/** A storage inspection call refused before anything was read: the message says which argument and why. */
export class InspectError extends GloveError {
  declare readonly code: InspectErrorCode;

  constructor(message: string, code: InspectErrorCode = "GLOVE_INSPECT_INVALID") {
    super(message, { code });
    this.name = "InspectError";
  }

  static override isInstance(error: unknown): error is InspectError {
    return (
      GloveError.isInstance(error) && (error.code === "GLOVE_INSPECT_INVALID" || error.code === "GLOVE_INSPECT_CURSOR")
    );
  }
}
