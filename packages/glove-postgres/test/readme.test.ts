import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import pg from "pg";
import { afterAll, describe, it } from "vitest";
import { PG_URL, pgProblem, uniqueSchema } from "./pg-env.js";

// Every ```ts block of the package README runs here (when PostgreSQL is reachable; postgres.test.ts
// reports a missing server), so documented examples cannot rot.
const here = dirname(fileURLToPath(import.meta.url));
const readme = readFileSync(join(here, "..", "README.md"), "utf8");
const blocks = [...readme.matchAll(/```ts\n([\s\S]*?)```/g)].map((m) => m[1]!);
const outDir = join(here, ".doctest");
mkdirSync(outDir, { recursive: true });
const enabled = (await pgProblem()) === undefined;
// The examples name schema "glove_readme"; each run uses its own so concurrent runs never collide.
const schema = uniqueSchema("readme");

afterAll(async () => {
  if (!enabled) return;
  const pool = new pg.Pool({ connectionString: PG_URL });
  await pool.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  await pool.end();
});

describe.runIf(enabled)("glove-postgres README examples", () => {
  it("has examples", () => {
    if (blocks.length < 2) throw new Error(`expected the README's examples, found ${blocks.length}`);
  });
  blocks.forEach((code, i) => {
    const heading = readme.slice(0, readme.indexOf(code)).match(/^## (.+)$/gm)?.at(-1) ?? "intro";
    it(`example ${i + 1} (${heading.replace(/^## /, "")}) runs`, async () => {
      const file = join(outDir, `readme-${i + 1}.ts`);
      writeFileSync(file, `${code.replaceAll('"glove_readme"', `"${schema}"`)}\nexport {};\n`);
      await import(/* @vite-ignore */ file);
    });
  });
});
