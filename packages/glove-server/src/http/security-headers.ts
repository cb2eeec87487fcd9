/**
 * Headers on every response of glove-server's own handler (and of `listenNode`'s own error
 * answers). The API only ever answers JSON and event streams, never a page, so the strictest
 * settings cost nothing: no MIME sniffing (a JSON error echoing input must never render as
 * HTML), no framing, no document that could run script, no Referer leaking conversation ids,
 * and no cross-origin reads without CORS (CORS reads from `allowedOrigins` are not affected).
 * A page an app serves beside the API comes from its own handler and keeps its own headers; a
 * server extension that serves pages sets its own (stricter than none) content-security-policy.
 */
export const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  "x-content-type-options": "nosniff",
  "referrer-policy": "no-referrer",
  "x-frame-options": "DENY",
  "content-security-policy": "default-src 'none'; frame-ancestors 'none'",
  "cross-origin-resource-policy": "same-origin",
};

/** Sets SECURITY_HEADERS on a response (its headers are mutable: it was built by this package). */
export function withSecurityHeaders(response: Response): Response {
  for (const [name, value] of Object.entries(SECURITY_HEADERS)) {
    if (name === "content-security-policy" && response.headers.has(name)) continue;
    response.headers.set(name, value);
  }
  return response;
}
