import { HttpError } from "../errors.js";

/** An HttpError that needs response headers (allow, retry-after). Keeps HttpError's name, so errorResponse renders it. */
export class RelayHttpError extends HttpError {
  readonly headers: Readonly<Record<string, string>>;

  constructor(status: number, code: string, message: string, headers: Record<string, string>) {
    super(status, code, message);
    this.headers = headers;
  }
}

export const methodNotAllowed = () =>
  new RelayHttpError(405, "GLOVE_METHOD_NOT_ALLOWED", "A model relay only answers POST with a JSON body.", {
    allow: "POST",
  });

export const unauthorized = () =>
  new HttpError(
    401,
    "GLOVE_UNAUTHORIZED",
    "This model relay needs credentials: sign in, or send what the server's authenticate() accepts.",
  );

export const modelNotAllowed = (model: string, allowed: Iterable<string>) =>
  new HttpError(
    403,
    "GLOVE_MODEL_NOT_ALLOWED",
    `Model "${model.slice(0, 256)}" is not allowed on this relay. Allowed: ${[...allowed].join(", ")}.`,
  );

export const rateLimited = (retryAfterSeconds: number, message: string) =>
  new RelayHttpError(429, "GLOVE_RATE_LIMITED", message, { "retry-after": String(retryAfterSeconds) });
