/**
 * Serves the built React UI (`vite build` of ui/ → ui/dist) at "/": index.html with a strict
 * Content-Security-Policy and the demo cookie, hashed assets under /assets with a long cache.
 */
import { readFile } from "node:fs/promises";
import { extname, join, resolve, sep } from "node:path";

const TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".ico": "image/x-icon",
  ".json": "application/json",
  ".map": "application/json",
  ".woff2": "font/woff2",
};

/** Scripts and styles from this origin only (Vite emits files, no inline script); fetch to this origin. */
export const CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join("; ");

const NOT_BUILT = `<!doctype html><meta charset="utf-8"><title>Glove Bistro: the UI is not built</title>
<p>The web UI is not built yet. At the repository root run <code>npm start</code> (it builds the packages
and the UI, then starts this server), or <code>npm run build:ui -w glove-example-web-chat</code>.</p>
<p>The API is up under <code>/api</code>.</p>`;

export interface StaticUi {
  /** The response for a GET/HEAD of `pathname`, or undefined when it is not a UI file. */
  serve(pathname: string, head: boolean): Promise<Response | undefined>;
}

export function staticUi(dir: string): StaticUi {
  const root = resolve(dir);
  return {
    async serve(pathname, head) {
      const index = pathname === "/" || pathname === "/index.html";
      if (!index && !pathname.startsWith("/assets/")) return undefined;
      let relative = "index.html";
      if (!index) {
        try {
          relative = decodeURIComponent(pathname);
        } catch {
          return undefined;
        }
      }
      const file = resolve(join(root, relative));
      if (!file.startsWith(root + sep)) return undefined;
      let body: Buffer;
      try {
        body = await readFile(file);
      } catch {
        if (!index) return undefined;
        return new Response(head ? null : NOT_BUILT, {
          status: 503,
          headers: { "content-type": TYPES[".html"]!, "cache-control": "no-store" },
        });
      }
      const headers = new Headers({
        "content-type": TYPES[extname(file)] ?? "application/octet-stream",
        "x-content-type-options": "nosniff",
        // Vite puts a content hash in every asset's name; index.html must always be fresh.
        "cache-control": index ? "no-store" : "public, max-age=31536000, immutable",
      });
      if (index) headers.set("content-security-policy", CSP);
      return new Response(head ? null : new Uint8Array(body), { status: 200, headers });
    },
  };
}
