import { readFile } from "node:fs/promises";
import { extname, join, normalize, sep } from "node:path";
import { SECURITY_HEADERS } from "./responses.js";

/** What the studio's Vite build writes; nothing else is served. */
const TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".svg": "image/svg+xml",
};

const NOT_BUILT = `<!doctype html><meta charset="utf-8"><title>Glove Studio</title>
<p>The studio's UI is not built. In the Glove repository run <code>npm run build:ui -w glove-studio</code>; the JSON API under <code>api/</code> works meanwhile.</p>`;

/** A file of the built UI (index.html for the root); undefined when there is none at that path. */
export async function staticFile(uiDir: string, segments: string[]): Promise<Response | undefined> {
  const relative = segments.length === 0 ? "index.html" : segments.join("/");
  const path = normalize(join(uiDir, relative));
  // Segments are decoded: "..", "%2f" and absolute paths must not leave the UI folder.
  if (
    !path.startsWith(normalize(uiDir) + sep) ||
    segments.some((s) => s === ".." || s.includes("/") || s.includes("\\") || s.includes("\0"))
  ) {
    return undefined;
  }
  const type = TYPES[extname(path)];
  if (!type) return undefined;
  let body: Buffer;
  try {
    body = await readFile(path);
  } catch {
    if (relative !== "index.html") return undefined;
    return new Response(NOT_BUILT, { headers: { ...SECURITY_HEADERS, "content-type": TYPES[".html"]! } });
  }
  // Vite names assets by content hash: they never change under one name.
  const cache = relative.startsWith("assets/") ? "public, max-age=31536000, immutable" : "no-cache";
  return new Response(new Uint8Array(body), {
    headers: { ...SECURITY_HEADERS, "content-type": type, "cache-control": cache },
  });
}
