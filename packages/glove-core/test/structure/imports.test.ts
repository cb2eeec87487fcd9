import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

// The shape of glove-core's imports: types/ at the bottom (it imports nothing of the runtime), and
// no file reaching itself through its imports. Type-only and dynamic imports count: a cycle of
// types is still a tangle to read and to move.
const src = resolve(dirname(fileURLToPath(import.meta.url)), "../../src");

function tsFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return tsFiles(path);
    return entry.name.endsWith(".ts") ? [path] : [];
  });
}

/** The relative specifiers a file imports: import/export … from, side-effect imports and import(). */
function relativeImports(file: string): string[] {
  const code = readFileSync(file, "utf8");
  const found = code.matchAll(/(?:\bfrom\s*|\bimport\s*\(\s*|^\s*import\s+)["'](\.{1,2}\/[^"']+)["']/gm);
  return [...found].map((m) => m[1]!);
}

/** The file a relative specifier names (`./x.js` is `./x.ts` in the sources). */
function target(from: string, specifier: string): string {
  return resolve(dirname(from), specifier.replace(/\.js$/, ".ts"));
}

describe("glove-core's imports", () => {
  it("never leave src/types (types sit below everything else)", () => {
    const types = join(src, "types");
    const leaving = tsFiles(types).flatMap((file) =>
      relativeImports(file)
        .filter((specifier) => relative(types, target(file, specifier)).startsWith(".."))
        .map((specifier) => `${relative(src, file)} imports ${specifier}`),
    );
    expect(leaving).toEqual([]);
  });

  it("have no cycle", () => {
    const files = new Set(tsFiles(src));
    const edges = new Map([...files].map((file) => [file, relativeImports(file).map((s) => target(file, s)).filter((t) => files.has(t))]));
    const done = new Set<string>();
    const cycles: string[] = [];
    // Depth-first; a file met again while still on the path closes a cycle.
    const visit = (file: string, path: string[]): void => {
      const at = path.indexOf(file);
      if (at >= 0) {
        cycles.push([...path.slice(at), file].map((f) => relative(src, f)).join(" -> "));
        return;
      }
      if (done.has(file)) return;
      for (const next of edges.get(file) ?? []) visit(next, [...path, file]);
      done.add(file);
    };
    for (const file of files) visit(file, []);
    expect(cycles).toEqual([]);
  });
});
