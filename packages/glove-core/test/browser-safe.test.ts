import { existsSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

// Decision 16: the main entry (and the display and testing subpaths) must load in a
// browser: no `node:` module and no third-party import except zod, anywhere in
// the graph they pull in.
const src = join(dirname(fileURLToPath(import.meta.url)), "..", "src");
const ALLOWED_PACKAGES = new Set(["zod"]);

function importGraph(entry: string): { files: Set<string>; external: Set<string> } {
  const files = new Set<string>();
  const external = new Set<string>();
  const visit = (file: string) => {
    if (files.has(file)) return;
    files.add(file);
    // Comments may show usage examples with imports; only real imports count.
    const code = readFileSync(file, "utf8").replace(/\/\*[\s\S]*?\*\//g, "").replace(/^\s*\/\/.*$/gm, "");
    for (const m of code.matchAll(/(?:import|export)\s[^"']*?from\s+["']([^"']+)["']|import\(\s*["']([^"']+)["']\s*\)/g)) {
      const spec = m[1] ?? m[2]!;
      if (!spec.startsWith(".")) {
        external.add(spec);
        continue;
      }
      const target = resolve(dirname(file), spec.replace(/\.js$/, ".ts"));
      visit(existsSync(target) ? target : join(target.replace(/\.ts$/, ""), "index.ts"));
    }
  };
  visit(entry);
  return { files, external };
}

describe("browser-safe entries", () => {
  for (const entry of ["index.ts", "display/index.ts", "testing/index.ts"]) {
    it(`${entry} imports no node: module and no package but zod`, () => {
      const { files, external } = importGraph(join(src, entry));
      expect(files.size).toBeGreaterThan(entry === "index.ts" ? 15 : 1);
      expect([...external].filter((s) => !ALLOWED_PACKAGES.has(s))).toEqual([]);
    });
  }
});
