/** The built page (`vite build ui` → ui/dist): index.html at "/", Vite's hashed files under /assets/. */
import { readFile } from "node:fs/promises";
import { extname, join, normalize } from "node:path";

const CONTENT_TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".svg": "image/svg+xml",
};

/** The page's own files only, with a policy that allows scripts and requests from this origin alone. */
const PAGE_POLICY = "default-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'";

/** The file answering GET `pathname`, or undefined when the page has none there. */
export async function pageFile(dir: string, pathname: string): Promise<Response | undefined> {
  const name =
    pathname === "/" ? "index.html" : pathname.startsWith("/assets/") ? normalize(pathname.slice(1)) : undefined;
  // normalize() folds "..": a name that climbs out of assets/ is not a page file.
  if (name === undefined || (name !== "index.html" && !name.startsWith("assets/"))) return undefined;
  const body = await readFile(join(dir, name)).catch(() => undefined);
  if (!body) return undefined;
  return new Response(body, {
    headers: {
      "content-type": CONTENT_TYPES[extname(name)] ?? "application/octet-stream",
      "content-security-policy": PAGE_POLICY,
      "cache-control": name === "index.html" ? "no-cache" : "public, max-age=31536000, immutable",
    },
  });
}
