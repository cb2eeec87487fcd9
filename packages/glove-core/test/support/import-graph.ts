import { existsSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

/** packages/glove-core/src */
export const srcDir = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "src");

/** The source file a relative specifier names: `.ts`, `.tsx`, or a folder's `index.ts`. */
function locate(base: string): string {
  for (const candidate of [`${base}.ts`, `${base}.tsx`, join(base, "index.ts")]) if (existsSync(candidate)) return candidate;
  throw new Error(`cannot resolve ${base}`);
}

/**
 * The source files a module reaches and the packages it imports (also used by glove-react's
 * browser-safety test). Type-only imports and imports shown in comments do not count; dynamic
 * `import()` is followed only when asked (lazily loaded code).
 */
export function importGraph(entry: string, followDynamic = true): { files: Set<string>; external: Set<string> } {
  const files = new Set<string>();
  const external = new Set<string>();
  const visit = (file: string) => {
    if (files.has(file)) return;
    files.add(file);
    const code = readFileSync(file, "utf8")
      .replace(/\/\*[\s\S]*?\*\//g, "")
      .replace(/^\s*\/\/.*$/gm, "");
    const patterns = [/(?:import|export)\s(?!type\s)[^"']*?from\s+["']([^"']+)["']/g];
    if (followDynamic) patterns.push(/import\(\s*["']([^"']+)["']\s*\)/g);
    for (const pattern of patterns) {
      for (const m of code.matchAll(pattern)) {
        const spec = m[1]!;
        if (!spec.startsWith(".")) {
          external.add(spec);
          continue;
        }
        visit(locate(resolve(dirname(file), spec.replace(/\.js$/, ""))));
      }
    }
  };
  visit(entry);
  return { files, external };
}
