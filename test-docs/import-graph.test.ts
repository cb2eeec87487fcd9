import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { importCircles, importsLeaving } from "../test-support/import-graph.js";

// The helper behind every package's structure test: it must see the circles a reader would.
let root: string | undefined;
afterEach(() => root && rmSync(root, { recursive: true, force: true }));

function tree(files: Record<string, string>): string {
  root = mkdtempSync(join(tmpdir(), "glove-import-graph-"));
  for (const [path, code] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), code);
  }
  return root;
}

describe("importCircles", () => {
  it("finds a circle closed by a type-only, multi-line import", () => {
    const dir = tree({
      "a.ts": 'import { b } from "./b.js";\nexport const a = b;\n',
      "b.ts": 'import type {\n  C,\n} from "./sub/c.js";\nexport const b = 1 as unknown as C;\n',
      "sub/c.ts": 'export type { A } from "../a.js";\nexport type C = number;\n',
      "d.ts": 'import "./a.js";\n',
    });
    expect(importCircles(dir)).toEqual(["a.ts ↔ b.ts ↔ sub/c.ts"]);
  });

  it("finds dynamic imports, folder indexes and .tsx files, and separate circles apart", () => {
    const dir = tree({
      "x.ts": 'export const load = () => import("./y.js");\n',
      "y.tsx": 'import { x } from "./z/index.js";\nexport const y = x;\n',
      "z/index.ts": 'export { load as x } from "../x.js";\n',
      "p.ts": 'import { q } from "./q.js";\nexport const p = q;\n',
      "q.ts": 'import { p } from "./p.js";\nexport const q = p;\n',
    });
    expect(importCircles(dir)).toEqual(["p.ts ↔ q.ts", "x.ts ↔ y.tsx ↔ z/index.ts"]);
  });

  it("sees no circle in a tree that only points down", () => {
    const dir = tree({ "a.ts": 'import "./b.js";\n', "b.ts": 'import "./c.js";\n', "c.ts": "export {};\n" });
    expect(importCircles(dir)).toEqual([]);
  });
});

describe("importsLeaving", () => {
  it("lists imports out of a folder, and only those", () => {
    const dir = tree({
      "types/a.ts":
        'import type { B } from "./b.js";\nimport type { S } from "../state/s.js";\nexport type A = B | S;\n',
      "types/b.ts": "export type B = 1;\n",
      "state/s.ts": 'import type { A } from "../types/a.js";\nexport type S = A;\n',
    });
    expect(importsLeaving(dir, "types", ["types"])).toEqual(["types/a.ts imports state/s.ts"]);
  });
});
