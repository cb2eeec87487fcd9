import { describe, expect, it } from "vitest";
import { BUDGET_BYTES, measurePage, packageOf } from "../measure.js";
import { measurePageWithEsbuild } from "../measure-esbuild.js";
import { SLOW_WORK_MS } from "../../../test-support/timeouts.js";

// A size budget is deterministic (same sources, same bundler, same bytes), so unlike the timing
// benches it may gate: a minimal server-mode page must stay within the 180 KiB.
describe("bundle size of a minimal server-mode page", () => {
  it(
    "fetches at most 180 KiB of minified JavaScript at start, zod included",
    async () => {
      const report = await measurePage();
      const names = report.start.packages.map((p) => p.name);
      expect(names).toEqual(expect.arrayContaining(["glove-react", "glove-core", "zod"]));
      expect(names).not.toContain("react");
      // The split adds up: every minified byte at start belongs to one package.
      expect(report.start.packages.reduce((sum, p) => sum + p.minified, 0)).toBe(report.start.minified);
      // No zod locale but the English one that zod's classic API loads itself.
      expect(report.start.modules.filter((source) => /zod\/v4\/locales\/(?!en\.js$)/.test(source))).toEqual([]);
      // Local mode's agent loop is there, fetched on demand only.
      expect(report.lazy.minified).toBeGreaterThan(0);
      expect(report.start.minified, `${(report.start.minified / 1024).toFixed(1)} KiB at start`).toBeLessThanOrEqual(
        BUDGET_BYTES,
      );
    },
    SLOW_WORK_MS,
  );

  // esbuild keeps what it cannot prove unused: zod's named `z` export (an object holding every
  // locale) pulled 62 locale modules into this page (566–620 KiB) before glove-core and the page
  // imported zod as a namespace. No locale and no server code may come back. Its start size is
  // reported, not gated: with code splitting, esbuild also loads local mode's runtime at start,
  // because glove-react's root exports LocalSession and PersistedStore (bench/README.md).
  it(
    "leaves zod's locales (but English) and server code out with esbuild too",
    async () => {
      const report = await measurePageWithEsbuild();
      const names = report.start.packages.map((p) => p.name);
      expect(names).toEqual(expect.arrayContaining(["glove-react", "glove-core", "zod"]));
      expect(names).not.toContain("react");
      expect(names.filter((name) => /^glove-(server|sqlite|postgres|mcp|studio|otel|evals)$/.test(name))).toEqual([]);
      expect(
        report.start.modules.filter((source) =>
          /^node:|packages\/glove-core\/src\/models\/shared\/http\/(platform-node|node)/.test(source),
        ),
      ).toEqual([]);
      expect(report.start.packages.reduce((sum, p) => sum + p.minified, 0)).toBe(report.start.minified);
      // esbuild lists an input it read even when it kept none of its code: the bytes are what count.
      const localeBytes = report.start.packages.find((p) => p.name === "zod (locales)")?.minified ?? 0;
      expect(localeBytes, "zod locale bytes at start").toBeLessThan(4096);
    },
    SLOW_WORK_MS,
  );

  it("names packages from source-map paths", () => {
    expect(packageOf("../../../node_modules/zod/v4/core/schemas.js")).toBe("zod");
    expect(packageOf("../../../node_modules/zod/v4/locales/en.js")).toBe("zod (locales)");
    expect(packageOf("../../../node_modules/@scope/pkg/index.js")).toBe("@scope/pkg");
    expect(packageOf("../../../packages/glove-react/src/index.ts")).toBe("glove-react");
    expect(packageOf("main.tsx")).toBe("page");
    expect(packageOf("(unmapped)")).toBe("(unmapped)");
  });
});

// The same page in Vue (bench/bundle-size/vue-page): glove-vue on glove-client, Vue external.
describe("bundle size of a minimal server-mode Vue page", () => {
  it(
    "fetches at most 180 KiB of minified JavaScript at start with Vite, zod included, no Vue and no zod locale",
    async () => {
      const report = await measurePage({ page: "vue" });
      const names = report.start.packages.map((p) => p.name);
      expect(names).toEqual(expect.arrayContaining(["glove-vue", "glove-client", "glove-core", "zod"]));
      expect(names.filter((name) => name === "vue" || name.startsWith("@vue/"))).toEqual([]);
      expect(names).not.toContain("glove-react");
      expect(report.start.packages.reduce((sum, p) => sum + p.minified, 0)).toBe(report.start.minified);
      expect(report.start.modules.filter((source) => /zod\/v4\/locales\/(?!en\.js$)/.test(source))).toEqual([]);
      // Local mode's agent loop is fetched on demand only.
      expect(report.lazy.minified).toBeGreaterThan(0);
      expect(report.start.minified, `${(report.start.minified / 1024).toFixed(1)} KiB at start`).toBeLessThanOrEqual(
        BUDGET_BYTES,
      );
    },
    SLOW_WORK_MS,
  );

  it(
    "leaves Vue, zod's locales (but English) and server code out with esbuild",
    async () => {
      const report = await measurePageWithEsbuild({ page: "vue" });
      const names = report.start.packages.map((p) => p.name);
      expect(names).toEqual(expect.arrayContaining(["glove-vue", "glove-client", "glove-core", "zod"]));
      expect(names.filter((name) => name === "vue" || name.startsWith("@vue/"))).toEqual([]);
      expect(names.filter((name) => /^glove-(server|sqlite|postgres|mcp|studio|otel|evals|react)$/.test(name))).toEqual(
        [],
      );
      expect(
        report.start.modules.filter((source) =>
          /^node:|packages\/glove-core\/src\/models\/shared\/http\/(platform-node|node)/.test(source),
        ),
      ).toEqual([]);
      const localeBytes = report.start.packages.find((p) => p.name === "zod (locales)")?.minified ?? 0;
      expect(localeBytes, "zod locale bytes at start").toBeLessThan(4096);
      // Reported, not gated, as for React: esbuild's code splitting loads local mode at start because
      // glove-client's root exports LocalSession and PersistedStore (bench/README.md).
    },
    SLOW_WORK_MS,
  );
});
