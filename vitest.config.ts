import { defineConfig } from "vitest/config";

// Resolve workspace packages to their TypeScript sources (the "source" export
// condition), so tests run without a build and see edits immediately.
const conditions = ["source", "import", "module", "node", "default"];

export default defineConfig({
  resolve: { conditions },
  ssr: { resolve: { conditions, externalConditions: conditions } },
  test: {
    include: ["packages/*/test/**/*.test.ts", "examples/*/test/**/*.test.ts", "bench/**/test/**/*.test.ts"],
    testTimeout: 20_000,
    hookTimeout: 20_000,
    server: { deps: { inline: [/glove-/] } },
  },
});
