/**
 * A newcomer's SQLite apps (a script agent; a server app) installed from the packed tarballs
 * (support/packed.ts, once per run) with install scripts on, as a newcomer's install runs: nothing
 * to build, and they run on node:sqlite under Node 22 and 24 (and name the missing driver on Node
 * 20). GLOVE_SKIP_INSTALL_TEST=1 skips it.
 */
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { nodeBinary, runningNodeLine } from "../test-support/node-lines.js";
import { SLOW_WORK_MS } from "../test-support/timeouts.js";
import { freshApp, lockOf, NPM_FLAGS, packedTarballs } from "./support/packed.js";
import { readmeExample, sh, shell } from "./support/shell.js";

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

describe.skipIf(process.env.GLOVE_SKIP_INSTALL_TEST === "1")("a newcomer's SQLite apps, from the tarballs", () => {
  const dir = mkdtempSync(join(tmpdir(), "glove-install-sqlite-"));
  afterAll(
    () => process.env.GLOVE_KEEP_INSTALL_DIR === "1" || rmSync(dir, { recursive: true, force: true }),
    SLOW_WORK_MS,
  );

  it.each([
    { app: "script agent", packages: ["glove-core", "glove-sqlite"], script: AGENT },
    { app: "server app", packages: ["glove-core", "glove-sqlite", "glove-server"], script: SERVER },
  ])(
    "the $app installs with no install script and no native build, and runs on node:sqlite under Node 22 and 24",
    async ({ app: kind, packages, script }) => {
      const tarballs = await packedTarballs();
      const app = freshApp(dir, kind.replace(" ", "-"));
      // Install scripts on and their output shown, as a newcomer's install runs.
      const { stdout, stderr } = await shell(
        "npm",
        ["install", ...packages.map((p) => tarballs.get(p)!), "zod@^4", ...NPM_FLAGS, "--foreground-scripts"],
        app,
      );
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
    SLOW_WORK_MS,
  );
});
