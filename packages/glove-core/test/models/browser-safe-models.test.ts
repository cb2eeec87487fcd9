import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

// The adapters run on fetch and Web Crypto only: no `node:` module, no package but
// zod, anywhere they reach. And `models/providers` reaches the adapters only
// through dynamic import(), so importing it loads no adapter code.
const src = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "src");

function graph(entry: string, followDynamic: boolean): { files: Set<string>; external: Set<string> } {
  const files = new Set<string>();
  const external = new Set<string>();
  const visit = (file: string) => {
    if (files.has(file)) return;
    files.add(file);
    const code = readFileSync(file, "utf8").replace(/^\s*(\/\/|\*|\/\*).*$/gm, "");
    const patterns = [/(?:import|export)\s(?!type\s)[^"']*?from\s+["']([^"']+)["']/g];
    if (followDynamic) patterns.push(/import\(\s*["']([^"']+)["']\s*\)/g);
    for (const pattern of patterns) {
      for (const m of code.matchAll(pattern)) {
        const spec = m[1]!;
        if (!spec.startsWith(".")) {
          external.add(spec);
          continue;
        }
        const target = resolve(dirname(file), spec.replace(/\.js$/, ".ts"));
        visit(existsSync(target) ? target : join(target.replace(/\.ts$/, ""), "index.ts"));
      }
    }
  };
  visit(entry);
  return { files, external };
}

describe("model adapters are browser-safe and lazily loaded", () => {
  const entries = readdirSync(join(src, "models")).filter((f) => f.endsWith(".ts"));

  it("covers the five subpaths", () => {
    expect(entries.sort()).toEqual(["anthropic.ts", "bedrock.ts", "mimo.ts", "openai-compat.ts", "providers.ts"]);
  });

  for (const entry of entries) {
    it(`models/${entry} (with its dynamic imports) imports no node: module and no package but zod`, () => {
      const { external } = graph(join(src, "models", entry), true);
      expect([...external].filter((s) => s !== "zod")).toEqual([]);
    });
  }

  it("models/providers statically imports no adapter", () => {
    const { files } = graph(join(src, "models", "providers.ts"), false);
    const names = [...files].map((f) => f.slice(src.length + 1));
    expect(names.filter((n) => /models\/(anthropic|openai-compat|bedrock|mimo)\.ts$/.test(n))).toEqual([]);
  });
});
