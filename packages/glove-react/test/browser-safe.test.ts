import { readdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { importGraph } from "../../glove-core/test/support/import-graph.js";

const src = join(dirname(fileURLToPath(import.meta.url)), "..", "src");
/** What a Vite (or any bundler) app must be able to resolve: React, glove-client (checked by its own test), glove-core's browser-safe entries. */
const ALLOWED = new Set([
  "react",
  "glove-client",
  "glove-client/mcp-apps",
  "glove-core",
  "glove-core/display-manager",
  "glove-core/errors",
]);

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? sources(join(dir, entry.name)) : /\.tsx?$/.test(entry.name) ? [join(dir, entry.name)] : [],
  );
}

describe("browser safety", () => {
  it("the entry reaches no node: module and no package but React and glove-core's browser entries", () => {
    const graph = importGraph(join(src, "index.ts"));
    // The hook, the renderers, defineTool, the MCP Apps frame… (the sessions and the store are glove-client's).
    expect(graph.files.size).toBeGreaterThan(12);
    expect([...graph.external].filter((spec) => !ALLOWED.has(spec))).toEqual([]);
  });

  it("no source file imports node:, reads process or Buffer, or requires", () => {
    for (const file of sources(src)) {
      const code = readFileSync(file, "utf8")
        .replace(/\/\*[\s\S]*?\*\//g, "")
        .replace(/^\s*\/\/.*$/gm, "");
      expect(code, file).not.toMatch(/from\s+["']node:|import\(\s*["']node:/);
      expect(code, file).not.toMatch(/\bprocess\.|\bBuffer\b|\brequire\(/);
    }
  });

  it('keeps "use client" at the top of the built entry', () => {
    const config = ts.getParsedCommandLineOfConfigFile(
      join(src, "..", "tsconfig.json"),
      {},
      { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => undefined },
    )!;
    const out = ts.transpileModule(readFileSync(join(src, "index.ts"), "utf8"), {
      compilerOptions: config.options,
      fileName: "index.ts",
    });
    expect(out.outputText.split("\n")[0]).toBe('"use client";');
  });
});
