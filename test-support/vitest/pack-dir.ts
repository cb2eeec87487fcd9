import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { TestProject } from "vitest/node";

// One folder per test run for the packed packages (npm pack of every publishable package), shared by
// every test file of test-install/: the first file that needs the tarballs packs them there, the
// others wait for it and reuse them (test-install/support/packed.ts). Nothing is packed here, so a
// run without test-install pays nothing. A rerun in watch mode empties it (the sources may have
// changed: it packs again). The folder goes at the end of the run (GLOVE_KEEP_INSTALL_DIR=1 keeps
// it to look at).

declare module "vitest" {
  export interface ProvidedContext {
    /** The run's folder for the packed packages (see test-support/vitest/pack-dir.ts). */
    glovePackDir: string;
  }
}

export default function setup(project: TestProject): () => void {
  const dir = mkdtempSync(join(tmpdir(), "glove-pack-run-"));
  project.provide("glovePackDir", dir);
  project.onTestsRerun(() => {
    for (const entry of readdirSync(dir)) rmSync(join(dir, entry), { recursive: true, force: true });
  });
  return () => {
    if (process.env.GLOVE_KEEP_INSTALL_DIR !== "1") rmSync(dir, { recursive: true, force: true });
  };
}
