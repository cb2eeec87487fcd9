import { HttpError, quoted } from "../errors.js";

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * Refuses state-changing requests that a browser sent from another site (a cookie-authenticated
 * user tricked into posting): the Origin must be the server's own or one of `allowedOrigins`.
 * Requests without Origin (curl, server-to-server with tokens) are not browser cross-site posts.
 */
export function checkOrigin(request: Request, url: URL, allowedOrigins: ReadonlySet<string>): void {
  if (SAFE_METHODS.has(request.method)) return;
  const origin = request.headers.get("origin");
  const site = request.headers.get("sec-fetch-site");
  if (origin === null) {
    if (site === "cross-site") throw forbidden("(no Origin header, Sec-Fetch-Site: cross-site)");
    return;
  }
  if (origin === url.origin || allowedOrigins.has(origin)) return;
  throw forbidden(quoted(origin));
}

function forbidden(origin: string): HttpError {
  return new HttpError(
    403,
    "GLOVE_FORBIDDEN_ORIGIN",
    `Requests from ${origin} are not allowed. Add the origin to allowedOrigins if this app should accept them.`,
  );
}
