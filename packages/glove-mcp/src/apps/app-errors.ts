import { GloveError } from "glove-core";

/** Why an MCP App request was refused. */
export type McpAppErrorReason =
  /** The UI resource could not be read, or is not `text/html;profile=mcp-app` HTML. */
  | "invalid_resource"
  /** The app asked for a tool its server does not list. */
  | "unknown_tool"
  /** The tool's `_meta.ui.visibility` leaves out "app": only the model may call it. */
  | "not_app_visible"
  /** The app's arguments are not an object. */
  | "invalid_arguments"
  /** The Glove's permission check refused the call. */
  | "denied";

/** A refused MCP App request (`reason` says which rule refused it). */
export class McpAppError extends GloveError {
  readonly reason: McpAppErrorReason;

  constructor(reason: McpAppErrorReason, message: string, options?: { cause?: unknown }) {
    super(message, { ...options, code: "GLOVE_MCP_APP" });
    this.name = "McpAppError";
    this.reason = reason;
  }

  static override isInstance(error: unknown): error is McpAppError {
    return GloveError.isInstance(error) && error.code === "GLOVE_MCP_APP";
  }
}
