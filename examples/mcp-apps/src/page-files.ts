/**
 * The built page (`vite build` of ui/ → ui/dist): index.html at "/", hashed files under /assets.
 * No page CSP header: an app's srcdoc frame would inherit it on top of its own (decision 32).
 */
import { readFile } from "node:fs/promises";
import { extname, join, resolve, sep } from "node:path";

const CONTENT_TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".map": "application/json",
};

export async function pageFile(uiDir: string, pathname: string): Promise<Response | undefined> {
  const isIndex = pathname === "/" || pathname === "/index.html";
  if (!isIndex && !/^\/assets\/[\w.-]+$/.test(pathname)) return undefined;
  const root = resolve(uiDir);
  const file = resolve(join(root, isIndex ? "index.html" : pathname));
  if (!file.startsWith(root + sep)) return undefined;
  try {
    const body = await readFile(file);
    return new Response(new Uint8Array(body), {
      headers: {
        "content-type": CONTENT_TYPES[extname(file)] ?? "application/octet-stream",
        "x-content-type-options": "nosniff",
        "cache-control": isIndex ? "no-store" : "public, max-age=31536000, immutable",
      },
    });
  } catch {
    return isIndex
      ? new Response("The page is not built: run `npm start -w glove-example-mcp-apps`.\n", { status: 503 })
      : undefined;
  }
}
