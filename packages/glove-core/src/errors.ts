/**
 * Typed errors. `isInstance` works across copies of the package (a Symbol.for
 * marker rather than `instanceof`), so checks survive duplicated installs.
 */
const MARKER = Symbol.for("glove.error");

/** Base class of Glove's typed errors; test with `isInstance` (it works across duplicate installs) and read `code`. */
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

/**
 * A model provider answered with an error (or the connection to it failed).
 * `status` is the HTTP status, 0 when no response arrived (network error,
 * timeout, stream cut mid-way). `retryable` is true for 408/409/429/5xx and
 * network failures; adapters retry those with backoff before giving up.
 */
export class ProviderError extends GloveError {
  readonly provider: string;
  readonly status: number;
  readonly retryable: boolean;
  /** The provider's own error message, as it sent it (or the transport failure). */
  readonly providerMessage: string;
  /** The provider's error type or code when it sent one (e.g. "rate_limit_error"). */
  readonly providerCode?: string;
  /** Milliseconds the provider asked us to wait (retry-after), when it said. */
  readonly retryAfterMs?: number;

  constructor(args: {
    provider: string;
    status: number;
    retryable: boolean;
    providerMessage: string;
    providerCode?: string;
    retryAfterMs?: number;
    message?: string;
    cause?: unknown;
  }) {
    super(
      args.message ??
        `${args.provider} ${args.status ? `returned HTTP ${args.status}` : "request failed"}: ${args.providerMessage}`,
      { code: "GLOVE_PROVIDER", cause: args.cause },
    );
    this.name = "ProviderError";
    this.provider = args.provider;
    this.status = args.status;
    this.retryable = args.retryable;
    this.providerMessage = args.providerMessage;
    if (args.providerCode !== undefined) this.providerCode = args.providerCode;
    if (args.retryAfterMs !== undefined) this.retryAfterMs = args.retryAfterMs;
  }

  static override isInstance(error: unknown): error is ProviderError {
    return hasCode(error, "GLOVE_PROVIDER");
  }
}

/** Throws an AbortError when the signal has fired. */
export function throwIfAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw toAbortError(signal.reason);
}

/** Normalises whatever a signal or a platform API threw on abort into our AbortError. */
export function toAbortError(reason: unknown): AbortError {
  if (GloveError.isInstance(reason) && reason.code === "GLOVE_ABORTED") return reason as AbortError;
  const message = reason instanceof Error && reason.message ? reason.message : "The request was aborted.";
  return new AbortError(message, { cause: reason });
}

/** A hook, skill, mention or subagent handler failed; nothing half-done was persisted. */
export class ExtensionError extends GloveError {
  readonly kind: "hook" | "skill" | "mention" | "subagent";
  readonly extensionName: string;

  constructor(kind: ExtensionError["kind"], extensionName: string, cause: unknown) {
    const reason = cause instanceof Error ? cause.message : String(cause);
    super(`The ${kind} "${extensionName}" failed: ${reason}. The request was not sent and nothing was stored.`, {
      cause,
      code: "GLOVE_EXTENSION",
    });
    this.name = "ExtensionError";
    this.kind = kind;
    this.extensionName = extensionName;
  }

  static override isInstance(error: unknown): error is ExtensionError {
    return hasCode(error, "GLOVE_EXTENSION");
  }
}
