import { GloveError } from "glove-core";

/** The stage of the OAuth flow that failed. */
export type McpOAuthStep = "discovery" | "authorization" | "callback" | "token" | "verification";

/** A failed MCP OAuth flow; `step` says where, the message says what to do next. */
export class McpOAuthError extends GloveError {
  readonly step: McpOAuthStep;

  constructor(step: McpOAuthStep, message: string, options?: { cause?: unknown }) {
    super(message, { ...options, code: "GLOVE_MCP_OAUTH" });
    this.name = "McpOAuthError";
    this.step = step;
  }

  static override isInstance(error: unknown): error is McpOAuthError {
    return GloveError.isInstance(error) && error.code === "GLOVE_MCP_OAUTH";
  }
}
