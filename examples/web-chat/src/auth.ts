/**
 * DEMO authentication — not for production. Two ways in:
 *
 * - `Authorization: Bearer <token>` with the token printed at start (for curl);
 * - a `demo_user` cookie, which `GET /` hands to any browser that has none (for the page).
 *
 * Anyone who can reach the server gets a cookie, and anyone who has one is that user. A real app
 * resolves the principal from its own session (a signed cookie, a verified JWT…) and returns
 * null for everyone else. glove-server only requires that `authenticate` exists; it cannot
 * know whether yours is good.
 */
import { randomUUID, timingSafeEqual } from "node:crypto";
import type { Principal } from "glove-server";

export const COOKIE = "demo_user";
const COOKIE_VALUE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** The value of one cookie in a Cookie header. */
export function readCookie(header: string | null, name: string): string | undefined {
  if (!header) return undefined;
  for (const part of header.split(";")) {
    const eq = part.indexOf("=");
    if (eq !== -1 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}

/** The browser's demo identity, if its cookie is well-formed. */
export function cookieUser(request: Request): string | undefined {
  const value = readCookie(request.headers.get("cookie"), COOKIE);
  return value && COOKIE_VALUE.test(value) ? value : undefined;
}

/** A Set-Cookie header giving a new browser a demo identity. */
export function mintCookie(): { user: string; header: string } {
  const user = randomUUID();
  return { user, header: `${COOKIE}=${user}; Path=/; HttpOnly; SameSite=Strict; Max-Age=2592000` };
}

function sameToken(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** glove-server's `authenticate`: the bearer token's user, or the cookie's, or null (401). */
export function demoAuthenticate(token: string) {
  return (request: Request): Principal | null => {
    const header = request.headers.get("authorization");
    if (header?.startsWith("Bearer ")) return sameToken(header.slice(7), token) ? { id: "curl-user" } : null;
    const user = cookieUser(request);
    return user ? { id: `browser-${user}` } : null;
  };
}
