import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { documentedInstalls, glovePackageOf, installPlans } from "./support/documented-installs.js";

const KNOWN = ["glove-core", "glove-sqlite", "glove-server", "glove-postgres"];

describe("the docs' install lines (what install-docs.test.ts installs)", () => {
  it("finds npm install in shell blocks and inline code, leaving out the repository's bare install", () => {
    const dir = mkdtempSync(join(tmpdir(), "glove-doc-installs-"));
    try {
      const page = join(dir, "page.md");
      writeFileSync(
        page,
        [
          "Run `npm install pg glove-postgres` for PostgreSQL, or `npm i zod@^4`.",
          "```sh",
          "npm install && npm run build   # the repository",
          "npm install /tmp/glove-packs/glove-core-0.1.0.tgz zod@^4",
          "npm install …/glove-sqlite-0.1.0.tgz --save # a comment",
          "```",
          "```ts",
          "// npm install nothing-here",
          "```",
        ].join("\n"),
      );
      const found = documentedInstalls(dir, [page]);
      expect(found.map((f) => [f.where, f.packages, f.block])).toEqual([
        ["page.md:1", ["pg", "glove-postgres"], undefined],
        ["page.md:1", ["zod@^4"], undefined],
        ["page.md:4", ["/tmp/glove-packs/glove-core-0.1.0.tgz", "zod@^4"], "page.md:2"],
        ["page.md:5", ["…/glove-sqlite-0.1.0.tgz"], "page.md:2"],
      ]);
      // The block's lines run in order in one app; a line without glove-core starts from the README's first install.
      expect(installPlans(found, KNOWN).map((plan) => plan.steps)).toEqual([
        [
          ["glove-core", { registry: "zod@^4" }],
          [{ registry: "pg" }, "glove-postgres"],
        ],
        [["glove-core", { registry: "zod@^4" }], [{ registry: "zod@^4" }]],
        [["glove-core", { registry: "zod@^4" }], ["glove-sqlite"]],
      ]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("maps a Glove package written as a name, a tarball or a folder, and nothing else", () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...KNOWN),
        fc.constantFrom("", "/tmp/glove-packs/", "…/", "../glove/packages/"),
        fc.boolean(),
        (name, prefix, tarball) => {
          const argument = prefix + name + (tarball && prefix !== "../glove/packages/" ? "-0.1.0.tgz" : "");
          expect(glovePackageOf(argument, KNOWN)).toBe(name);
        },
      ),
    );
    for (const other of ["zod@^4", "pg", "glove-unknown", "glove", "@types/glove-core", "glove-core@4"])
      expect(glovePackageOf(other, KNOWN), other).toBeUndefined();
  });
});
