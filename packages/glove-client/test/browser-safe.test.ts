import { readdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { importGraph } from "../../glove-core/test/support/import-graph.js";

const src = join(dirname(fileURLToPath(import.meta.url)), "..", "src");

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? sources(join(dir, entry.name)) : /\.ts$/.test(entry.name) ? [join(dir, entry.name)] : [],
  );
}

describe("browser safety", () => {
  it("the entry reaches no node: module and no package but glove-core's browser entries", () => {
    const graph = importGraph(join(src, "index.ts"));
    expect(graph.files.size).toBeGreaterThan(25); // the sessions, the store, local mode… (type-only files are not followed)
    expect([...graph.external].sort()).toEqual([
      "glove-core",
      "glove-core/display-manager",
      "glove-core/errors",
      "glove-core/models/relay",
      "glove-core/sse",
    ]);
  });

  it("GloveSessionStore reaches local mode only by a dynamic import (a server-mode page never loads the loop)", () => {
    const graph = importGraph(join(src, "session", "glove-session-store.ts"), false);
    const names = [...graph.files].map((file) => file.slice(src.length + 1));
    expect(names.filter((name) => name.startsWith("local/"))).toEqual([]);
    // Not glove-core's root either: a bundler that splits code (esbuild) would load the runtime with it.
    expect([...graph.external].sort()).toEqual(["glove-core/errors", "glove-core/sse"]);
    const lazy = [...importGraph(join(src, "session", "glove-session-store.ts"), true).files];
    expect(lazy.map((file) => file.slice(src.length + 1))).toContain("local/local-session.ts");
  });

  it("the MCP Apps bridge reaches nothing outside its folder", () => {
    const graph = importGraph(join(src, "mcp-apps", "index.ts"));
    expect([...graph.external]).toEqual([]);
    expect([...graph.files].every((file) => file.startsWith(join(src, "mcp-apps")))).toBe(true);
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
});
