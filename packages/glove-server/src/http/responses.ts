import { HttpError } from "../errors.js";

const JSON_HEADERS = { "content-type": "application/json; charset=utf-8", "cache-control": "no-store" };

/** The text of responses made by `json`, so `listenNode` can write it whole instead of reading the body stream. */
const texts = new WeakMap<Response, string>();

export function json(status: number, body: unknown, headers?: Record<string, string>): Response {
  const text = JSON.stringify(body);
  const response = new Response(text, { status, headers: { ...JSON_HEADERS, ...headers } });
  texts.set(response, text);
  return response;
}

/** The body of a response made by `json`, while nobody has read it. */
export function jsonTextOf(response: Response): string | undefined {
  const text = texts.get(response);
  return text === undefined || response.bodyUsed ? undefined : text;
}

/**
 * The JSON body of every error: a stable code and a message for people; never a stack trace.
 * Errors that are not HttpErrors are logged with `log` and answered as a plain 500.
 */
export function errorResponse(error: unknown, log: (message: string, error: unknown) => void): Response {
  if (HttpError.isInstance(error)) {
    const body: Record<string, unknown> = { code: error.code, message: error.message };
    if (error.issues) body.issues = error.issues;
    const headers: Record<string, string> = { ...error.responseHeaders };
    if (error.status === 401) headers["www-authenticate"] = "Bearer";
    return json(error.status, { error: body }, headers);
  }
  log("[glove-server] unexpected error while handling a request", error);
  return json(500, {
    error: { code: "GLOVE_INTERNAL", message: "The server failed to handle the request; it was logged. Try again." },
  });
}
