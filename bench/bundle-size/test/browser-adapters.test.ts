import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import type { Rolldown } from "vite";
import { SLOW_WORK_MS } from "../../../test-support/timeouts.js";

// glove-core's adapters pick their HTTP transport through package.json "imports"
// ("#http-transport": node:http under the "node" condition, fetch otherwise). A browser build
// (Vite, as glove-react's local mode and the example UIs use it) must take the fetch one: no
// node: module, no Vite "browser-external" stub, no node:http transport in the bundle.

const here = dirname(fileURLToPath(import.meta.url));
const ENTRY = join(here, "..", "browser-adapters", "main.ts");
const coreDist = join(
  here,
  "..",
  "..",
  "..",
  "packages",
  "glove-core",
  "dist",
  "models",
  "shared",
  "http",
  "platform-fetch.js",
);

async function bundle(from: "source" | "dist"): Promise<{ code: string; modules: string[] }> {
  const { build } = await import("vite");
  const output = (await build({
    configFile: false,
    root: dirname(ENTRY),
    mode: "production",
    logLevel: "silent",
    resolve: { conditions: [...(from === "dist" ? [] : ["glove-source"]), "module", "browser", "production"] },
    build: { write: false, minify: false, lib: { entry: ENTRY, formats: ["es"], fileName: "adapters" } },
  })) as Rolldown.RolldownOutput | Rolldown.RolldownOutput[];
  const chunks = (Array.isArray(output) ? output : [output])
    .flatMap((o) => o.output)
    .filter((item): item is Rolldown.OutputChunk => item.type === "chunk");
  return { code: chunks.map((c) => c.code).join("\n"), modules: chunks.flatMap((c) => Object.keys(c.modules)) };
}

describe("a browser bundle of every model adapter", () => {
  for (const from of ["source", "dist"] as const) {
    it.skipIf(from === "dist" && !existsSync(coreDist))(
      `imports no node: module (glove-core from ${from})`,
      async () => {
        const { code, modules } = await bundle(from);
        expect(modules.some((m) => /shared[/\\]http[/\\]platform-fetch\.(ts|js)$/.test(m))).toBe(true);
        expect(modules.filter((m) => /shared[/\\]http[/\\](platform-node|node|node-body)\.(ts|js)$/.test(m))).toEqual(
          [],
        );
        expect(code).not.toMatch(/["']node:/);
        expect(code).not.toContain("__vite-browser-external");
      },
      SLOW_WORK_MS,
    );
  }
});
