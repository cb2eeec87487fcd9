import { GloveError } from "glove-core";
import type { z } from "zod";

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
  /** Headers the error response carries, e.g. `retry-after` on a 429 or `allow` on a 405. */
  readonly responseHeaders: Readonly<Record<string, string>>;

  constructor(
    status: number,
    code: string,
    message: string,
    options?: { issues?: RequestIssue[]; cause?: unknown; headers?: Record<string, string> },
  ) {
    super(message, { code, cause: options?.cause });
    this.name = "HttpError";
    this.status = status;
    this.issues = options?.issues;
    this.responseHeaders = options?.headers ?? {};
  }

  static override isInstance(error: unknown): error is HttpError {
    return (
      GloveError.isInstance(error) &&
      typeof (error as { status?: unknown }).status === "number" &&
      (error as Error).name === "HttpError"
    );
  }
}

export const badRequest = (message: string, issues?: RequestIssue[]) =>
  new HttpError(400, "GLOVE_BAD_REQUEST", message, { issues });
export const notFound = (message = "Not found. Check the path and the conversation id.") =>
  new HttpError(404, "GLOVE_NOT_FOUND", message);
export const conflict = (code: string, message: string) => new HttpError(409, code, message);
export const tooLarge = (message: string) => new HttpError(413, "GLOVE_TOO_LARGE", message);

/** A 429 with `retry-after`, for quotas and rates: the client can tell when to come back. */
export const tooManyRequests = (code: string, retryAfterSeconds: number, message: string) =>
  new HttpError(429, code, message, { headers: { "retry-after": String(Math.max(1, Math.ceil(retryAfterSeconds))) } });

/** Longest piece of client input an error message repeats. */
const ECHO_CHARS = 100;

/**
 * Client input as an error message may show it: strings quoted and cut to 100 characters, other
 * values named by their type. Never `JSON.stringify` of the value itself, which could be megabytes
 * long or nested deep enough to overflow the stack.
 */
export function quoted(value: unknown): string {
  if (typeof value === "string")
    return JSON.stringify(value.length > ECHO_CHARS ? `${value.slice(0, ECHO_CHARS)}…` : value);
  if (typeof value === "number" || typeof value === "boolean" || value === null || value === undefined)
    return String(value);
  if (Array.isArray(value)) return "an array";
  return typeof value === "object" ? "an object" : `a ${typeof value}`;
}

/** Issues listed at most in one error response. */
const MAX_ISSUES = 20;

/** A zod failure's issues as an error response lists them (the first 20). */
export function zodIssues(issues: readonly z.core.$ZodIssue[]): RequestIssue[] {
  return issues
    .slice(0, MAX_ISSUES)
    .map((issue) => ({ path: issue.path.map(String).join("."), message: issue.message }));
}
