import { GloveError } from "glove-core/errors";
import type { SlotIssue } from "./types/state.js";

/**
 * What a `defineTool` tool pushed does not match its `displayPropsSchema`, or the renderData its
 * `do` returned does not match its `renderDataSchema` (`schema` says which): a bug in the tool.
 */
export class DisplayPropsError extends GloveError {
  readonly toolName: string;
  readonly issues: SlotIssue[];
  readonly schema: "displayPropsSchema" | "renderDataSchema";

  constructor(
    toolName: string,
    issues: SlotIssue[],
    schema: "displayPropsSchema" | "renderDataSchema" = "displayPropsSchema",
  ) {
    const what =
      schema === "displayPropsSchema"
        ? ["pushed display props", "the props the tool's do() pushes"]
        : ["returned renderData", "the renderData the tool's do() returns"];
    super(
      `Tool "${toolName}" ${what[0]} that do not match its ${schema}: ` +
        `${issues.map((i) => `${i.path}: ${i.message}`).join("; ")}. Fix ${what[1]}.`,
      { code: "GLOVE_DISPLAY_INVALID_PROPS" },
    );
    this.name = "DisplayPropsError";
    this.toolName = toolName;
    this.issues = issues;
    this.schema = schema;
  }

  static override isInstance(error: unknown): error is DisplayPropsError {
    return GloveError.isInstance(error) && error.code === "GLOVE_DISPLAY_INVALID_PROPS";
  }
}

/** glove-server refused a request or could not be reached (`status` 0). */
export class ServerRequestError extends GloveError {
  readonly status: number;
  readonly issues: SlotIssue[] | undefined;

  constructor(status: number, code: string, message: string, issues?: SlotIssue[], cause?: unknown) {
    super(message, { code, cause });
    this.name = "ServerRequestError";
    this.status = status;
    this.issues = issues;
  }

  static override isInstance(error: unknown): error is ServerRequestError {
    return (
      GloveError.isInstance(error) &&
      typeof (error as { status?: unknown }).status === "number" &&
      error.name === "ServerRequestError"
    );
  }
}

/** Zod-style issues as `{ path, message }` lines (the shape glove-core and glove-server report). */
export function toIssues(issues: ReadonlyArray<{ path: readonly PropertyKey[]; message: string }>): SlotIssue[] {
  return issues.map((issue) => ({
    path: issue.path.map((segment) => String(segment)).join(".") || "(root)",
    message: issue.message,
  }));
}
