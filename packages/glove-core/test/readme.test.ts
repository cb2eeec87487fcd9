import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, it } from "vitest";

// Every ```ts block of the package README runs here, so documented examples cannot rot.
const here = dirname(fileURLToPath(import.meta.url));
const readme = readFileSync(join(here, "..", "README.md"), "utf8");
const blocks = [...readme.matchAll(/```ts\n([\s\S]*?)```/g)].map((m) => m[1]!);
const outDir = join(here, ".doctest");
mkdirSync(outDir, { recursive: true });

describe("README examples", () => {
  it("has examples", () => {
    if (blocks.length < 5) throw new Error(`expected the README's examples, found ${blocks.length}`);
  });
  blocks.forEach((code, i) => {
    const heading =
      readme
        .slice(0, readme.indexOf(code))
        .match(/^## (.+)$/gm)
        ?.at(-1) ?? "intro";
    it(`example ${i + 1} (${heading.replace(/^## /, "")}) runs`, async () => {
      const file = join(outDir, `readme-${i + 1}.ts`);
      writeFileSync(file, `${code}\nexport {};\n`);
      await import(/* @vite-ignore */ file);
    });
  });
});
