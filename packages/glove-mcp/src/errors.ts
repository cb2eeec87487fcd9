import { GloveError } from "glove-core";

/** Thrown when the server rejects the bearer token (HTTP 401). */
export class McpAuthError extends GloveError {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, { ...options, code: "GLOVE_MCP_AUTH" });
    this.name = "McpAuthError";
  }

  static override isInstance(error: unknown): error is McpAuthError {
    return GloveError.isInstance(error) && error.code === "GLOVE_MCP_AUTH";
  }
}

/** Thrown when no transport could reach the server; the message lists each attempt. */
export class McpConnectError extends GloveError {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, { ...options, code: "GLOVE_MCP_CONNECT" });
    this.name = "McpConnectError";
  }

  static override isInstance(error: unknown): error is McpConnectError {
    return GloveError.isInstance(error) && error.code === "GLOVE_MCP_CONNECT";
  }
}

/** Thrown when connecting to a server (handshake and tool list) takes longer than `connectTimeoutMs`. */
export class McpTimeoutError extends GloveError {
  readonly timeoutMs: number;

  constructor(message: string, timeoutMs: number, options?: { cause?: unknown }) {
    super(message, { ...options, code: "GLOVE_MCP_TIMEOUT" });
    this.name = "McpTimeoutError";
    this.timeoutMs = timeoutMs;
  }

  static override isInstance(error: unknown): error is McpTimeoutError {
    return GloveError.isInstance(error) && error.code === "GLOVE_MCP_TIMEOUT";
  }
}

/**
 * The server answered 403 `insufficient_scope`: the token is valid but lacks a scope the request
 * needs. `requiredScope` is the challenge's `scope` (what to re-authorize with), when it gave one.
 */
export class McpInsufficientScopeError extends GloveError {
  readonly requiredScope: string | undefined;
  readonly resourceMetadataUrl: string | undefined;

  constructor(
    message: string,
    details: { requiredScope?: string | undefined; resourceMetadataUrl?: string | undefined },
    options?: { cause?: unknown },
  ) {
    super(message, { ...options, code: "GLOVE_MCP_INSUFFICIENT_SCOPE" });
    this.name = "McpInsufficientScopeError";
    this.requiredScope = details.requiredScope;
    this.resourceMetadataUrl = details.resourceMetadataUrl;
  }

  static override isInstance(error: unknown): error is McpInsufficientScopeError {
    return GloveError.isInstance(error) && error.code === "GLOVE_MCP_INSUFFICIENT_SCOPE";
  }
}

/** True for the errors that mean "the token was refused or expired". */
export function isAuthError(error: unknown): boolean {
  if (McpAuthError.isInstance(error)) return true;
  if (!(error instanceof Error)) return false;
  if (error.name === "UnauthorizedError") return true;
  const code = (error as { code?: unknown }).code;
  if (code === 401) return true;
  return /\b401\b|unauthori[sz]ed|invalid_token|token expired/i.test(error.message);
}

export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
