import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, it } from "vitest";
import { describeReadmeExamples } from "../../../test-support/readme-examples.js";

const packageDir = fileURLToPath(new URL("..", import.meta.url));

describeReadmeExamples({ title: "glove-react README ts examples", packageDir, atLeast: 2 });

// The shared runner handles ```ts; the tsx blocks run the same way, as .tsx modules.
describe("glove-react README tsx examples", () => {
  const readme = readFileSync(join(packageDir, "README.md"), "utf8");
  const blocks = [...readme.matchAll(/```tsx\n([\s\S]*?)```/g)].map((m) => m[1]!);
  const outDir = join(packageDir, "test", ".doctest");
  mkdirSync(outDir, { recursive: true });
  it("has examples", () => {
    if (blocks.length < 2) throw new Error(`expected the README's tsx examples, found ${blocks.length}`);
  });
  blocks.forEach((code, i) => {
    it(`tsx example ${i + 1} runs`, async () => {
      const file = join(outDir, `readme-tsx-${i + 1}.tsx`);
      writeFileSync(file, `${code}\nexport {};\n`);
      await import(/* @vite-ignore */ file);
    });
  });
});
