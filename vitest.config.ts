import { availableParallelism } from "node:os";
import { defineConfig } from "vitest/config";
import SlowFirstSequencer from "./test-support/vitest/slow-first-sequencer.js";

// Resolve workspace packages to their TypeScript sources (the "glove-source" export
// condition), so tests run without a build and see edits immediately.
const conditions = ["glove-source", "import", "module", "node", "default"];

export default defineConfig({
  resolve: { conditions },
  // Vitest passes ssr.resolve.conditions to Node as --conditions, which also steer `require()`:
  // "import"/"module" there make CommonJS packages load the ESM build of their dependencies
  // (pg requiring pg-pool gets a module namespace and crashes). Vite adds import/require itself.
  ssr: {
    resolve: { conditions: ["glove-source", "node", "development|production"], externalConditions: ["glove-source"] },
  },
  test: {
    include: [
      "packages/*/test/**/*.test.ts",
      "packages/*/test/**/*.test.tsx",
      "examples/*/test/**/*.test.ts",
      "bench/**/test/**/*.test.ts",
      "test-install/**/*.test.ts",
      "test-docs/**/*.test.ts",
    ],
    // Generous: most tests take milliseconds, but servers, stores and property runs go at the
    // machine's pace, and a loaded machine must make them slow, not failed. Work that builds,
    // spawns or packs sets its own (longer) timeout, see test-support/timeouts.ts.
    testTimeout: 300_000,
    // no-writes-in-repo fails the run when a test wrote into the repository's ./.glove (tests write
    // only under tmp); pack-dir gives test-install/'s files one folder to pack the packages into once.
    globalSetup: ["test-support/no-writes-in-repo.ts", "test-support/vitest/pack-dir.ts"],
    hookTimeout: 300_000,
    server: { deps: { inline: [/glove-/] } },
    // Most test files wait on sockets, child processes, databases and browsers rather than compute,
    // so one more worker than cores keeps the cores busy (Vitest's default is one fewer, a single
    // worker on two cores). Files share no state: each uses its own schema, Redis prefix, port and
    // temporary folder. GLOVE_TEST_WORKERS overrides.
    maxWorkers: Number(process.env.GLOVE_TEST_WORKERS) || availableParallelism() + 1,
    sequence: { sequencer: SlowFirstSequencer },
    reporters: ["default", "./test-support/vitest/progress-reporter.ts"],
  },
});
