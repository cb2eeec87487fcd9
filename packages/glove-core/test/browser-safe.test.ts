import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { importGraph, srcDir as src } from "./support/import-graph.js";

// Decision 16: the main entry (and the display and testing subpaths) must load in a
// browser: no `node:` module and no third-party import except zod, anywhere in
// the graph they pull in, lazily loaded adapters included.
const ALLOWED_PACKAGES = new Set(["zod"]);

describe("browser-safe entries", () => {
  for (const entry of ["index.ts", "display/index.ts", "testing/index.ts", "public-errors.ts", "pricing/index.ts"]) {
    it(`${entry} imports no node: module and no package but zod`, () => {
      const { files, external } = importGraph(join(src, entry));
      expect(files.size).toBeGreaterThan(entry === "index.ts" ? 15 : 1);
      expect([...external].filter((s) => !ALLOWED_PACKAGES.has(s))).toEqual([]);
    });
  }

  it("public-errors.ts (glove-core/errors) holds the errors and nothing of the runtime", () => {
    const { files } = importGraph(join(src, "public-errors.ts"));
    expect([...files].map((file) => file.slice(src.length + 1)).sort()).toEqual([
      "branches/branch-error.ts",
      "errors.ts",
      "public-errors.ts",
    ]);
  });
});
