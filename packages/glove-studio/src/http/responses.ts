import { HttpError, InspectError } from "glove-server";

/**
 * The studio's pages run only their own script and styles and talk only to their own origin;
 * nothing from a stored message can load or run anything (it is rendered as text anyway).
 */
export const STUDIO_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join("; ");

export const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  "content-security-policy": STUDIO_CSP,
  "x-content-type-options": "nosniff",
  "referrer-policy": "no-referrer",
  "x-frame-options": "DENY",
  "cross-origin-resource-policy": "same-origin",
};

export function json(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { ...SECURITY_HEADERS, "content-type": "application/json; charset=utf-8", "cache-control": "no-store" },
  });
}

/** HttpErrors (the studio's and the server's hosting's) as their status; anything else is logged and a 500 without details. */
export function errorJson(error: unknown, log: (message: string, error: unknown) => void): Response {
  if (HttpError.isInstance(error)) {
    const body: Record<string, unknown> = { code: error.code, message: error.message };
    if (error.issues) body.issues = error.issues;
    return json(error.status, { error: body });
  }
  // The inspector refuses arguments it cannot read (a forged cursor): the caller's mistake.
  if (InspectError.isInstance(error)) return json(400, { error: { code: error.code, message: error.message } });
  log("[glove-studio] unexpected error while handling a request", error);
  return json(500, {
    error: { code: "GLOVE_STUDIO_INTERNAL", message: "The studio failed to answer; it was logged." },
  });
}

export const badQuery = (name: string, message: string) =>
  new HttpError(400, "GLOVE_STUDIO_BAD_QUERY", `${name}: ${message}`, { issues: [{ path: name, message }] });
