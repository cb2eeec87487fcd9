/**
 * Builds bench/bundle-size/page (React) or vue-page (Vue) with Vite (production, minified, the
 * framework external, in memory) and splits the JavaScript a browser fetches at start by package,
 * through the bundle's source map.
 */
import { basename, dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";
import { decode } from "@jridgewell/sourcemap-codec";
import type { Rolldown } from "vite";

type OutputChunk = Rolldown.OutputChunk;

const here = dirname(fileURLToPath(import.meta.url));
/** bench/ (this file runs from bench/bundle-size or, compiled, from bench/dist/bundle-size). */
const BENCH_DIR = basename(dirname(here)) === "dist" ? dirname(dirname(here)) : dirname(here);
export const PAGE_DIR = join(BENCH_DIR, "bundle-size", "page");

/** The pages measured: one per binding, each with its framework external (what the app has anyway). */
export const PAGES = {
  react: { dir: PAGE_DIR, entry: "main.tsx", external: [/^react(-dom)?($|\/)/], framework: ["react", "react-dom"] },
  vue: {
    dir: join(BENCH_DIR, "bundle-size", "vue-page"),
    entry: "main.ts",
    external: [/^vue($|\/)/, /^@vue\//],
    framework: ["vue", "@vue/runtime-dom", "@vue/runtime-core", "@vue/reactivity", "@vue/shared"],
  },
} as const;
export type PageName = keyof typeof PAGES;

/** The budget for a minimal server-mode page, zod included, React excluded. */
export const BUDGET_BYTES = 180 * 1024;

export interface PackageSize {
  /** An npm package, a workspace package, "zod (locales)", "page" or "(unmapped)". */
  name: string;
  minified: number;
  /** That package's minified bytes gzipped on their own (they do not add up to the total). */
  gzip: number;
}

export interface BundleReport {
  /** The entry chunk and every chunk it imports statically: what a page fetches at start. */
  start: { files: string[]; minified: number; gzip: number; packages: PackageSize[]; modules: string[] };
  /** Chunks fetched only on demand (glove-react's local mode). */
  lazy: { files: string[]; minified: number; gzip: number };
}

export interface MeasureOptions {
  /** "source": workspace packages from their TypeScript sources (no build needed); "dist": their built output. */
  from?: "source" | "dist";
  /** Which binding's page (default "react"). */
  page?: PageName;
}

/** The package a source-map path belongs to. */
export function packageOf(source: string): string {
  if (source === "(unmapped)") return source;
  if (/zod\/v4\/locales\//.test(source)) return "zod (locales)";
  const npm = /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(source);
  if (npm) return npm[1]!;
  const workspace = /packages\/([^/]+)\//.exec(source);
  return workspace ? workspace[1]! : "page";
}

async function build(options: MeasureOptions): Promise<OutputChunk[]> {
  const name = options.page ?? "react";
  const page = PAGES[name];
  const [{ build: viteBuild }, { default: react }] = await Promise.all([
    import("vite"),
    import("@vitejs/plugin-react"),
  ]);
  const output = (await viteBuild({
    configFile: false,
    root: page.dir,
    mode: "production",
    logLevel: "warn",
    // The Vue page is render functions in .ts: no plugin (no SFC compiler).
    plugins: name === "react" ? [react()] : [],
    define: { "process.env.NODE_ENV": '"production"' },
    resolve: { conditions: [...(options.from === "dist" ? [] : ["glove-source"]), "module", "browser", "production"] },
    build: {
      write: false,
      minify: true,
      sourcemap: true,
      // An app build (a library build in "es" format keeps its whitespace); the page mounts itself.
      rollupOptions: { input: join(page.dir, page.entry), external: [...page.external] },
    },
  })) as Rolldown.RolldownOutput | Rolldown.RolldownOutput[];
  return (Array.isArray(output) ? output : [output])
    .flatMap((result) => result.output)
    .filter((item): item is OutputChunk => item.type === "chunk");
}

/** Minified bytes of the chunk by source file, from its source map (a segment runs to the next one). */
function bytesBySource(chunk: OutputChunk, into: Map<string, string[]>): void {
  if (!chunk.map) throw new Error(`${chunk.fileName} has no source map`);
  const mappings = decode(chunk.map.mappings);
  const lines = chunk.code.split("\n");
  lines.forEach((line, index) => {
    const text = index < lines.length - 1 ? `${line}\n` : line;
    const segments = mappings[index] ?? [];
    const first = segments[0]?.[0] ?? text.length;
    if (first > 0) push(into, "(unmapped)", text.slice(0, first));
    segments.forEach((segment, i) => {
      const source = segment.length > 1 ? (chunk.map!.sources[segment[1]!] ?? "(unmapped)") : "(unmapped)";
      push(into, source, text.slice(segment[0], segments[i + 1]?.[0] ?? text.length));
    });
  });
}

function push(into: Map<string, string[]>, key: string, text: string): void {
  const list = into.get(key);
  if (list) list.push(text);
  else into.set(key, [text]);
}

const gzip = (text: string) => gzipSync(text, { level: 9 }).length;
const bytes = (text: string) => Buffer.byteLength(text);

export async function measurePage(options: MeasureOptions = {}): Promise<BundleReport> {
  const chunks = await build(options);
  const byName = new Map(chunks.map((chunk) => [chunk.fileName, chunk]));
  const start = new Set<OutputChunk>();
  const visit = (chunk: OutputChunk | undefined) => {
    if (!chunk || start.has(chunk)) return;
    start.add(chunk);
    for (const name of chunk.imports) visit(byName.get(name));
  };
  visit(chunks.find((chunk) => chunk.isEntry));
  const lazy = chunks.filter((chunk) => !start.has(chunk));

  const sources = new Map<string, string[]>();
  for (const chunk of start) bytesBySource(chunk, sources);
  const texts = new Map<string, string>();
  for (const [source, parts] of sources)
    texts.set(packageOf(source), (texts.get(packageOf(source)) ?? "") + parts.join(""));
  const packages = [...texts]
    .map(([name, text]) => ({ name, minified: bytes(text), gzip: gzip(text) }))
    .sort((a, b) => b.minified - a.minified);
  const sum = (list: OutputChunk[], size: (code: string) => number) =>
    list.reduce((total, chunk) => total + size(chunk.code), 0);
  return {
    start: {
      files: [...start].map((chunk) => chunk.fileName),
      minified: sum([...start], bytes),
      gzip: sum([...start], gzip),
      packages,
      modules: [...sources.keys()].filter((source) => source !== "(unmapped)").sort(),
    },
    lazy: { files: lazy.map((chunk) => chunk.fileName), minified: sum(lazy, bytes), gzip: sum(lazy, gzip) },
  };
}
