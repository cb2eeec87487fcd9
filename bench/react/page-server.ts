/**
 * Builds the benchmark page (bench/react/page) with Vite — a production React build with the
 * profiling entry of react-dom, so <Profiler onRender> reports commits — and serves it on
 * 127.0.0.1 (ES modules do not load from file://).
 */
import { createServer } from "node:http";
import { readFile } from "node:fs/promises";
import { basename, dirname, extname, join, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
/** bench/ (this file runs from bench/react or, compiled, from bench/dist/react). */
export const BENCH_DIR = basename(dirname(here)) === "dist" ? dirname(dirname(here)) : dirname(here);
export const PAGE_DIR = join(BENCH_DIR, "react", "page");

export async function buildPage(outDir: string): Promise<void> {
  const [{ build }, { default: react }] = await Promise.all([import("vite"), import("@vitejs/plugin-react")]);
  await build({
    configFile: false,
    root: PAGE_DIR,
    mode: "production",
    logLevel: "warn",
    plugins: [react()],
    resolve: {
      // Workspace packages from their TypeScript sources; react-dom's profiling build.
      conditions: ["glove-source", "module", "browser", "production"],
      alias: [{ find: /^react-dom\/client$/, replacement: "react-dom/profiling" }],
    },
    build: { outDir, emptyOutDir: true, sourcemap: false, chunkSizeWarningLimit: 2000 },
  });
}

const TYPES: Record<string, string> = { ".html": "text/html", ".js": "text/javascript", ".css": "text/css" };

export interface PageServer {
  url: string;
  close(): Promise<void>;
}

export async function servePage(dir: string): Promise<PageServer> {
  const root = resolve(dir);
  const server = createServer((request, response) => {
    const path = new URL(request.url ?? "/", "http://x").pathname;
    const file = resolve(join(root, path === "/" ? "index.html" : path));
    if (!file.startsWith(root + sep)) return void response.writeHead(404).end();
    readFile(file).then(
      (body) =>
        response.writeHead(200, { "content-type": TYPES[extname(file)] ?? "application/octet-stream" }).end(body),
      () => response.writeHead(404).end(),
    );
  });
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  const address = server.address();
  if (!address || typeof address === "string") throw new Error("no address");
  return {
    url: `http://127.0.0.1:${address.port}/`,
    close: () => new Promise<void>((done) => server.close(() => done())),
  };
}
