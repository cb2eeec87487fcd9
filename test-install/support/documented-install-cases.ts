import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { expect, it } from "vitest";
import { nodeBinary, runningNodeLine } from "../../test-support/node-lines.js";
import { documentedInstalls, installPlans, type InstallStep } from "./documented-installs.js";
import { eachLimited, readmeExample, ROOT, sh, shell } from "./shell.js";

/** Packages allowed an install script in a documented install, and why. */
const INSTALL_SCRIPTS_ALLOWED: Record<string, string> = {
  "better-sqlite3": "the SQLite driver an app on Node 20 installs (glove-sqlite README); Node 22.13+ needs none",
  node: "a Node.js binary glove-mcp's README installs in a scratch folder to run a conformance check on",
  "msgpackr-extract": "bullmq's optional native speed-up (the scale mode's lines); the scale mode runs without it",
};

const NPM_FLAGS = ["--no-audit", "--no-fund", "--prefer-offline"];

interface Packed {
  /** The folder the tarballs are in; apps are made below it. */
  dir: string;
  /** Package name → tarball (filled by the enclosing beforeAll). */
  tarballs: ReadonlyMap<string, string>;
  timeout: number;
}

function freshApp(dir: string, name: string): string {
  const app = join(dir, name);
  mkdirSync(app, { recursive: true });
  writeFileSync(join(app, "package.json"), JSON.stringify({ name, private: true, type: "module" }, null, 2));
  return app;
}

function lockOf(app: string): Record<string, { resolved?: string; hasInstallScript?: boolean }> {
  return (JSON.parse(readFileSync(join(app, "package-lock.json"), "utf8")) as { packages: Record<string, never> })
    .packages;
}

/**
 * The install lines of the documentation, each run from the packed tarballs in a fresh app, and a
 * newcomer's SQLite apps installed with scripts on: nothing to build, and they run on Node 22 and 24.
 */
export function describeDocumentedInstalls({ dir, tarballs, timeout }: Packed): void {
  const spec = (step: InstallStep) => step.map((arg) => (typeof arg === "string" ? tarballs.get(arg)! : arg.registry));

  it(
    "every npm install line of the READMEs, getting started and the guides installs from the tarballs in a fresh app",
    async () => {
      const installs = documentedInstalls(ROOT);
      // The lines this check was written with are among those found (the extraction still reads them).
      const where = installs.map((install) => install.command);
      expect(where).toContain("npm install glove-core glove-sqlite zod@^4");
      expect(where).toContain("npm install glove-core glove-sqlite glove-server glove-studio");
      const plans = installPlans(installs, [...tarballs.keys()]);
      const failures: string[] = [];
      await eachLimited(
        plans.map((plan, i) => ({ plan, i })),
        2,
        async ({ plan, i }) => {
          const app = freshApp(dir, `docs-${i}`);
          try {
            // Scripts off: better-sqlite3's would build a native addon for minutes. Which packages
            // have one is checked below instead, from the lockfile.
            for (const step of plan.steps)
              await sh("npm", ["install", ...spec(step), ...NPM_FLAGS, "--ignore-scripts"], app);
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
    timeout,
  );

  const AGENT = `import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { SqliteStore } from "glove-sqlite";
const store = new SqliteStore({ dbPath: join(mkdtempSync(join(tmpdir(), "glove-agent-")), "chat.db"), sessionId: "s" });
await store.appendMessages([{ sender: "user", text: "hi" }]);
console.log(JSON.stringify({ driver: store.driver, messages: (await store.getMessages()).length }));
store.close();
`;
  const SERVER = `import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sqliteStorage } from "glove-server";
const storage = sqliteStorage({ path: join(mkdtempSync(join(tmpdir(), "glove-server-app-")), "glove.db") });
const store = await storage.store("c1");
await store.appendMessages([{ sender: "user", text: "hi" }]);
console.log(JSON.stringify({ driver: store.driver, messages: (await store.getMessages()).length }));
await storage.close();
`;

  it.each([
    { app: "script agent", packages: ["glove-core", "glove-sqlite"], script: AGENT },
    { app: "server app", packages: ["glove-core", "glove-sqlite", "glove-server"], script: SERVER },
  ])(
    "the $app installs with no install script and no native build, and runs on node:sqlite under Node 22 and 24",
    async ({ app: kind, packages, script }) => {
      const app = freshApp(dir, kind.replace(" ", "-"));
      const { stdout, stderr } = await sh2(app, [...packages.map((p) => tarballs.get(p)!), "zod@^4"]);
      expect(`${stdout}\n${stderr}`).not.toMatch(/node-gyp|prebuild-install|gyp info/);
      expect(existsSync(join(app, "node_modules", "better-sqlite3"))).toBe(false);
      expect(Object.entries(lockOf(app)).filter(([, entry]) => entry.hasInstallScript)).toEqual([]);
      writeFileSync(join(app, "main.mjs"), script);
      for (const line of [22, 24] as const) {
        const out = JSON.parse(await sh(nodeBinary(line), ["main.mjs"], app)) as { driver: string; messages: number };
        expect(out, `Node ${line}`).toEqual({ driver: "node:sqlite", messages: 1 });
      }
      // The package's own first example too, as a newcomer copies it.
      const example = kind === "script agent" ? readmeExample("glove-sqlite", 1) : readmeExample("glove-server", 1);
      writeFileSync(join(app, "readme-example.mjs"), example);
      await sh(nodeBinary(22), ["readme-example.mjs"], app);
      if (runningNodeLine === 20) {
        // Node 20 has no node:sqlite: without better-sqlite3 the store says what to install.
        const failed = await shell(process.execPath, ["main.mjs"], app).then(
          () => "",
          (error: Error) => error.message,
        );
        expect(failed).toMatch(/SqliteDriverError: .*npm install better-sqlite3.*Node\.js 22\.13 or newer/);
      }
    },
    timeout,
  );
}

/** `npm install` with install scripts on and their output shown (as a newcomer's install runs). */
function sh2(app: string, args: string[]): Promise<{ stdout: string; stderr: string }> {
  return shell("npm", ["install", ...args, ...NPM_FLAGS, "--foreground-scripts"], app);
}
