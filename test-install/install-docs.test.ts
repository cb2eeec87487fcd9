/**
 * Every `npm install` line of the READMEs, getting started and the guides, run from the packed
 * tarballs (support/packed.ts, once per run) in a fresh app: Glove names, tarball and folder paths
 * map to the tarballs; only the packages in INSTALL_SCRIPTS_ALLOWED may have install scripts.
 * GLOVE_SKIP_INSTALL_TEST=1 skips it.
 */
import { cpSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { SLOW_WORK_MS } from "../test-support/timeouts.js";
import { documentedInstalls, installPlans, type InstallStep } from "./support/documented-installs.js";
import { freshApp, lockOf, NPM_FLAGS, packedTarballs, type Tarballs } from "./support/packed.js";
import { eachLimited, ROOT, sh } from "./support/shell.js";

/** Packages allowed an install script in a documented install, and why. */
const INSTALL_SCRIPTS_ALLOWED: Record<string, string> = {
  "better-sqlite3": "the SQLite driver an app on Node 20 installs (glove-sqlite README); Node 22.13+ needs none",
  node: "a Node.js binary glove-mcp's README installs in a scratch folder to run a conformance check on",
  "msgpackr-extract": "bullmq's optional native speed-up (the scale mode's lines); the scale mode runs without it",
};

describe.skipIf(process.env.GLOVE_SKIP_INSTALL_TEST === "1")("the docs' install lines, from the tarballs", () => {
  const dir = mkdtempSync(join(tmpdir(), "glove-install-docs-"));
  afterAll(
    () => process.env.GLOVE_KEEP_INSTALL_DIR === "1" || rmSync(dir, { recursive: true, force: true }),
    SLOW_WORK_MS,
  );

  it(
    "every npm install line of the READMEs, getting started and the guides installs from the tarballs in a fresh app",
    async () => {
      const tarballs = await packedTarballs();
      const installs = documentedInstalls(ROOT);
      // The lines this check was written with are among those found (the extraction still reads them).
      const where = installs.map((install) => install.command);
      expect(where).toContain("npm install glove-core glove-sqlite zod@^4");
      expect(where).toContain("npm install glove-core glove-sqlite glove-server glove-studio");
      const plans = installPlans(installs, [...tarballs.keys()]);
      const firstSteps = new FirstSteps(
        dir,
        tarballs,
        plans.map((plan) => plan.steps[0]!),
      );
      const failures: string[] = [];
      await eachLimited(
        plans.map((plan, i) => ({ plan, i })),
        2,
        async ({ plan, i }) => {
          const app = join(dir, `docs-${i}`);
          try {
            // The first command, run once for the plans that share it (most start with the README's
            // `npm install glove-core zod@^4`): its app is copied, the later commands run in the copy.
            await firstSteps.into(plan.steps[0]!, app);
            for (const step of plan.steps.slice(1)) await install(app, tarballs, step);
            const lock = lockOf(app);
            const glove = plan.steps.flat().filter((arg): arg is string => typeof arg === "string");
            for (const name of glove) expect(lock[`node_modules/${name}`]?.resolved, name).toMatch(/^file:/);
            await sh("npm", ["ls", ...new Set(glove)], app); // exits non-zero on a missing or invalid peer
            const scripted = Object.entries(lock)
              .filter(([, entry]) => entry.hasInstallScript)
              .map(([path]) => path.replace(/^.*node_modules\//, ""));
            for (const name of scripted)
              expect(INSTALL_SCRIPTS_ALLOWED, `${name} has an install script`).toHaveProperty(name);
          } catch (error) {
            failures.push(`${plan.from.join(", ")}: ${error instanceof Error ? error.message : String(error)}`);
          }
        },
      );
      expect(failures).toEqual([]);
    },
    SLOW_WORK_MS,
  );
});

/**
 * Scripts off: better-sqlite3's would build a native addon for minutes. Which packages have one is
 * checked from the lockfile instead.
 */
async function install(app: string, tarballs: Tarballs, step: InstallStep): Promise<void> {
  const args = step.map((arg) => (typeof arg === "string" ? tarballs.get(arg)! : arg.registry));
  await sh("npm", ["install", ...args, ...NPM_FLAGS, "--ignore-scripts"], app);
}

/**
 * The plans' first commands, each installed once in a fresh app of its own (a sibling of the plans'
 * apps, so the relative `file:` paths npm writes stay right in a copy) and copied for each plan.
 * A first command only one plan has runs in that plan's app directly.
 */
class FirstSteps {
  private readonly shared = new Map<string, Promise<string>>();
  private readonly counts = new Map<string, number>();

  constructor(
    private readonly dir: string,
    private readonly tarballs: Tarballs,
    steps: readonly InstallStep[],
  ) {
    for (const step of steps) this.counts.set(JSON.stringify(step), (this.counts.get(JSON.stringify(step)) ?? 0) + 1);
  }

  async into(step: InstallStep, app: string): Promise<void> {
    const key = JSON.stringify(step);
    if ((this.counts.get(key) ?? 0) < 2) {
      await install(freshApp(this.dir, app.slice(this.dir.length + 1)), this.tarballs, step);
      return;
    }
    let template = this.shared.get(key);
    if (!template) {
      const made = freshApp(this.dir, `first-step-${this.shared.size}`);
      template = install(made, this.tarballs, step).then(() => made);
      this.shared.set(key, template);
    }
    cpSync(await template, app, { recursive: true, preserveTimestamps: true, verbatimSymlinks: true });
  }
}
