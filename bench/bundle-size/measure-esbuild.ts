/**
 * The same pages as measure.ts, built by esbuild (bundle, minify, ESM with code splitting, the
 * framework external) — the bundler of many Node-first setups, which shakes less than Vite: a zod import
 * style or a module with side effects that Vite drops may stay here. Split by package through
 * esbuild's metafile (bytes each input put into each output).
 */
import { join, relative } from "node:path";
import { gzipSync } from "node:zlib";
import type { Metafile } from "esbuild";
import { PAGES, packageOf, type BundleReport, type MeasureOptions } from "./measure.js";

export async function measurePageWithEsbuild(options: MeasureOptions = {}): Promise<BundleReport> {
  const { build } = await import("esbuild");
  const name = options.page ?? "react";
  const page = PAGES[name];
  const result = await build({
    entryPoints: [join(page.dir, page.entry)],
    bundle: true,
    minify: true,
    splitting: true,
    format: "esm",
    platform: "browser",
    jsx: "automatic",
    write: false,
    metafile: true,
    outdir: "/bundle",
    logLevel: "silent",
    conditions: [...(options.from === "dist" ? [] : ["glove-source"]), "module", "browser", "production"],
    define: { "process.env.NODE_ENV": '"production"' },
    external: page.framework.flatMap((pkg) => [pkg, `${pkg}/*`]),
  });
  // The metafile names outputs relative to the working directory; the files carry absolute paths.
  const code = new Map(result.outputFiles.map((file) => [relative(process.cwd(), file.path), file.text]));
  const outputs = result.metafile.outputs;
  const entry = Object.keys(outputs).find((name) => outputs[name]!.entryPoint !== undefined)!;
  const start = new Set<string>();
  const visit = (name: string) => {
    if (start.has(name) || !outputs[name]) return;
    start.add(name);
    for (const imported of outputs[name]!.imports) if (imported.kind === "import-statement") visit(imported.path);
  };
  visit(entry);
  const lazy = Object.keys(outputs).filter((name) => name.endsWith(".js") && !start.has(name));
  const startBytes = [...start].reduce((sum, name) => sum + Buffer.byteLength(code.get(name) ?? ""), 0);
  const startGzip = [...start].reduce((sum, name) => sum + gzipSync(code.get(name) ?? "", { level: 9 }).length, 0);
  return {
    start: {
      files: [...start],
      minified: startBytes,
      gzip: startGzip,
      packages: byPackage(outputs, start, startBytes),
      modules: [...start].flatMap((name) => Object.keys(outputs[name]!.inputs)).sort(),
    },
    lazy: {
      files: lazy,
      minified: lazy.reduce((sum, name) => sum + Buffer.byteLength(code.get(name) ?? ""), 0),
      gzip: lazy.reduce((sum, name) => sum + gzipSync(code.get(name) ?? "", { level: 9 }).length, 0),
    },
  };
}

/**
 * Minified bytes per package at start. esbuild counts the bytes each input put into an output; what
 * no input accounts for (the chunk's own glue) is "(unmapped)", so the split adds up to the total.
 * The gzip column is not measured per package here (esbuild keeps no text per input): 0.
 */
function byPackage(outputs: Metafile["outputs"], start: Set<string>, total: number): BundleReport["start"]["packages"] {
  const sizes = new Map<string, number>();
  for (const name of start)
    for (const [input, { bytesInOutput }] of Object.entries(outputs[name]!.inputs)) {
      const pkg = packageOf(input);
      sizes.set(pkg, (sizes.get(pkg) ?? 0) + bytesInOutput);
    }
  const mapped = [...sizes.values()].reduce((sum, n) => sum + n, 0);
  if (total > mapped) sizes.set("(unmapped)", total - mapped);
  return [...sizes]
    .map(([name, minified]) => ({ name, minified, gzip: 0 }))
    .filter((p) => p.minified > 0)
    .sort((a, b) => b.minified - a.minified);
}
