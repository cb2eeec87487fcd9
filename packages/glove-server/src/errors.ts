import { GloveError } from "glove-core";

/** One problem with a request field, e.g. `{ path: "resolve.age", message: "Expected number" }`. */
export interface RequestIssue {
  path: string;
  message: string;
}

/**
 * A request the server refuses, with the HTTP status and a message that says what to do next.
 * Route handlers throw it; the router turns it into a JSON error response.
 */
export class HttpError extends GloveError {
  readonly status: number;
  readonly issues: RequestIssue[] | undefined;

  constructor(status: number, code: string, message: string, options?: { issues?: RequestIssue[]; cause?: unknown }) {
    super(message, { code, cause: options?.cause });
    this.name = "HttpError";
    this.status = status;
    this.issues = options?.issues;
  }

  static override isInstance(error: unknown): error is HttpError {
    return GloveError.isInstance(error) && typeof (error as { status?: unknown }).status === "number" && (error as Error).name === "HttpError";
  }
}

export const badRequest = (message: string, issues?: RequestIssue[]) =>
  new HttpError(400, "GLOVE_BAD_REQUEST", message, { issues });
export const notFound = (message = "Not found. Check the path and the conversation id.") =>
  new HttpError(404, "GLOVE_NOT_FOUND", message);
export const conflict = (code: string, message: string) => new HttpError(409, code, message);
export const tooLarge = (message: string) => new HttpError(413, "GLOVE_TOO_LARGE", message);
