import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "vitest";

export interface ReadmeExamplesOptions {
  /** The describe block's title. */
  title: string;
  /** The package folder holding README.md; the examples are written to `<packageDir>/test/.doctest`. */
  packageDir: string;
  /** Fewer ```ts blocks than this means the README lost examples (or the pattern broke). */
  atLeast: number;
  /** False skips the examples (e.g. no server); default true. */
  enabled?: boolean;
  /** Adapts an example before it runs (e.g. its own schema name). */
  rewrite?: (code: string) => string;
}

/** Runs every ```ts block of a package README as a test, so documented examples cannot rot. */
export function describeReadmeExamples({
  title,
  packageDir,
  atLeast,
  enabled = true,
  rewrite = (code) => code,
}: ReadmeExamplesOptions): void {
  const readme = readFileSync(join(packageDir, "README.md"), "utf8");
  const blocks = [...readme.matchAll(/```ts\n([\s\S]*?)```/g)].map((m) => m[1]!);
  const outDir = join(packageDir, "test", ".doctest");
  mkdirSync(outDir, { recursive: true });

  describe.runIf(enabled)(title, () => {
    it("has examples", () => {
      if (blocks.length < atLeast) throw new Error(`expected the README's examples, found ${blocks.length}`);
    });
    blocks.forEach((code, i) => {
      const heading =
        readme
          .slice(0, readme.indexOf(code))
          .match(/^## (.+)$/gm)
          ?.at(-1) ?? "intro";
      it(`example ${i + 1} (${heading.replace(/^## /, "")}) runs`, async () => {
        const file = join(outDir, `readme-${i + 1}.ts`);
        writeFileSync(file, `${rewrite(code)}\nexport {};\n`);
        await import(/* @vite-ignore */ file);
      });
    });
  });
}
