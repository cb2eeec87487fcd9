import { HttpError } from "glove-server";

const LOOPBACK = /^(127\.0\.0\.1|localhost|\[::1\])(:\d{1,5})?$/i;

/**
 * The standalone studio answers loopback names only: a web page whose name an attacker points at
 * 127.0.0.1 (DNS rebinding) must not read the conversations.
 */
export function checkLoopbackHost(request: Request): void {
  const host = request.headers.get("host") ?? new URL(request.url).host;
  if (!LOOPBACK.test(host)) {
    throw new HttpError(421, "GLOVE_STUDIO_HOST_NOT_ALLOWED", "The studio answers on 127.0.0.1 and localhost only.");
  }
}
