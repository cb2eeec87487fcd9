import { GloveError } from "glove-core";
import type { SlotIssue } from "./types/state.js";

/** The props a `defineTool` tool pushed do not match its `displayPropsSchema` (a bug in the tool). */
export class DisplayPropsError extends GloveError {
  readonly toolName: string;
  readonly issues: SlotIssue[];

  constructor(toolName: string, issues: SlotIssue[]) {
    super(
      `Tool "${toolName}" pushed display props that do not match its displayPropsSchema: ` +
        `${issues.map((i) => `${i.path}: ${i.message}`).join("; ")}. Fix the props the tool's do() pushes.`,
      { code: "GLOVE_DISPLAY_INVALID_PROPS" },
    );
    this.name = "DisplayPropsError";
    this.toolName = toolName;
    this.issues = issues;
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
    return GloveError.isInstance(error) && typeof (error as { status?: unknown }).status === "number" && error.name === "ServerRequestError";
  }
}

/** Zod-style issues as `{ path, message }` lines (the shape glove-core and glove-server report). */
export function toIssues(issues: ReadonlyArray<{ path: readonly PropertyKey[]; message: string }>): SlotIssue[] {
  return issues.map((issue) => ({ path: issue.path.map((segment) => String(segment)).join(".") || "(root)", message: issue.message }));
}
