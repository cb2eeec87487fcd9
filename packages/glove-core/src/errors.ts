/**
 * Typed errors. `isInstance` works across copies of the package (a Symbol.for
 * marker rather than `instanceof`), so checks survive duplicated installs.
 */
const MARKER = Symbol.for("glove.error");

export class GloveError extends Error {
  private readonly [MARKER] = true;
  /** Stable machine-readable code, e.g. "GLOVE_ABORTED". */
  readonly code: string;

  constructor(message: string, options?: { cause?: unknown; code?: string }) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.name = "GloveError";
    this.code = options?.code ?? "GLOVE_ERROR";
  }

  static isInstance(error: unknown): error is GloveError {
    return typeof error === "object" && error !== null && (error as Record<symbol, unknown>)[MARKER] === true;
  }
}

function hasCode(error: unknown, code: string): boolean {
  return GloveError.isInstance(error) && error.code === code;
}

/** Thrown when a request is aborted through its AbortSignal. */
export class AbortError extends GloveError {
  constructor(message = "The request was aborted.", options?: { cause?: unknown }) {
    super(message, { ...options, code: "GLOVE_ABORTED" });
    this.name = "AbortError";
  }

  /** True for Glove's AbortError and for platform aborts (DOMException "AbortError"). */
  static override isInstance(error: unknown): error is AbortError {
    if (hasCode(error, "GLOVE_ABORTED")) return true;
    return typeof error === "object" && error !== null && (error as { name?: unknown }).name === "AbortError";
  }
}

/** Misuse of the API: missing required option, calling a runnable method before build… */
export class ConfigurationError extends GloveError {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, { ...options, code: "GLOVE_CONFIGURATION" });
    this.name = "ConfigurationError";
  }

  static override isInstance(error: unknown): error is ConfigurationError {
    return hasCode(error, "GLOVE_CONFIGURATION");
  }
}

/** A tool name is already taken. */
export class DuplicateToolError extends GloveError {
  readonly toolName: string;

  constructor(toolName: string) {
    super(
      `A tool named "${toolName}" is already registered. Pick another name, or fold with { replace: true } to replace it.`,
      { code: "GLOVE_DUPLICATE_TOOL" },
    );
    this.name = "DuplicateToolError";
    this.toolName = toolName;
  }

  static override isInstance(error: unknown): error is DuplicateToolError {
    return hasCode(error, "GLOVE_DUPLICATE_TOOL");
  }
}

/** A pending display slot was removed or the stack cleared before anyone answered it. */
export class DisplaySlotClosedError extends GloveError {
  readonly slotId: string;

  constructor(slotId: string, reason: string) {
    super(`Display slot ${slotId} was closed before it was answered (${reason}).`, {
      code: "GLOVE_DISPLAY_SLOT_CLOSED",
    });
    this.name = "DisplaySlotClosedError";
    this.slotId = slotId;
  }

  static override isInstance(error: unknown): error is DisplaySlotClosedError {
    return hasCode(error, "GLOVE_DISPLAY_SLOT_CLOSED");
  }
}

/** A display slot was rejected by the UI with a reason. */
export class DisplaySlotRejectedError extends GloveError {
  readonly slotId: string;
  readonly reason: unknown;

  constructor(slotId: string, reason: unknown) {
    super(`Display slot ${slotId} was rejected: ${typeof reason === "string" ? reason : String(reason)}`, {
      code: "GLOVE_DISPLAY_SLOT_REJECTED",
    });
    this.name = "DisplaySlotRejectedError";
    this.slotId = slotId;
    this.reason = reason;
  }

  static override isInstance(error: unknown): error is DisplaySlotRejectedError {
    return hasCode(error, "GLOVE_DISPLAY_SLOT_REJECTED");
  }
}

/** A model adapter returned something the runtime cannot use. */
export class ModelResponseError extends GloveError {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, { ...options, code: "GLOVE_MODEL_RESPONSE" });
    this.name = "ModelResponseError";
  }

  static override isInstance(error: unknown): error is ModelResponseError {
    return hasCode(error, "GLOVE_MODEL_RESPONSE");
  }
}

/** Throws an AbortError when the signal has fired. */
export function throwIfAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw toAbortError(signal.reason);
}

/** Normalises whatever a signal or a platform API threw on abort into our AbortError. */
export function toAbortError(reason: unknown): AbortError {
  if (GloveError.isInstance(reason) && reason.code === "GLOVE_ABORTED") return reason as AbortError;
  const message =
    reason instanceof Error && reason.message ? reason.message : "The request was aborted.";
  return new AbortError(message, { cause: reason });
}
