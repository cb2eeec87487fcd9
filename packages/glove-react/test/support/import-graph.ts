import { existsSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";

/**
 * The source files a module reaches and the packages they import (glove-core's test helper of the
 * same name, extended to .tsx). Type-only imports and commented-out imports do not count.
 */
export function importGraph(entry: string): { files: Set<string>; external: Set<string> } {
  const files = new Set<string>();
  const external = new Set<string>();
  const locate = (base: string): string => {
    for (const candidate of [`${base}.ts`, `${base}.tsx`, join(base, "index.ts")]) if (existsSync(candidate)) return candidate;
    throw new Error(`cannot resolve ${base}`);
  };
  const visit = (file: string) => {
    if (files.has(file)) return;
    files.add(file);
    const code = readFileSync(file, "utf8")
      .replace(/\/\*[\s\S]*?\*\//g, "")
      .replace(/^\s*\/\/.*$/gm, "");
    for (const pattern of [/(?:import|export)\s(?!type\s)[^"']*?from\s+["']([^"']+)["']/g, /import\(\s*["']([^"']+)["']\s*\)/g]) {
      for (const match of code.matchAll(pattern)) {
        const spec = match[1]!;
        if (!spec.startsWith(".")) external.add(spec);
        else visit(locate(resolve(dirname(file), spec.replace(/\.js$/, ""))));
      }
    }
  };
  visit(entry);
  return { files, external };
}
