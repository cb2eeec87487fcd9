/**
 * Installs the packed publishable packages (npm pack, once per run: support/packed.ts) into a fresh
 * app outside the workspace, and runs README examples there with plain `node`: proves the tarballs
 * carry what they need, that peers resolve to our own glove-core (not the unrelated glove-core 4.x
 * on the public registry), and that the published types compile for moduleResolution node10 and
 * nodenext. The docs' install lines (install-docs.test.ts) and the SQLite apps installed with
 * scripts on (install-sqlite-apps.test.ts) use the same tarballs in their own files, so the three
 * run side by side. Needs the npm registry (or a warm npm cache) for the third-party dependencies.
 * GLOVE_SKIP_INSTALL_TEST=1 skips it.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import ts from "typescript";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SLOW_WORK_MS } from "../test-support/timeouts.js";
import { freshApp, NPM_FLAGS, packedTarballs, PUBLISHABLE } from "./support/packed.js";
import { ROOT, readmeExample, sh } from "./support/shell.js";

const TSC = join(ROOT, "node_modules", "typescript", "bin", "tsc");
/** What the big app below installs: all of them (glove-react brings react 19, its peer, and its types along below). */
const PACKAGES = PUBLISHABLE;
/** Every step packs, installs, compiles or spawns node: its pace is the machine's load, so no step has a tight limit. */
const TIMEOUT = SLOW_WORK_MS;

describe.skipIf(process.env.GLOVE_SKIP_INSTALL_TEST === "1")(
  "the packed packages install and run outside the workspace",
  () => {
    const dir = mkdtempSync(join(tmpdir(), "glove-install-"));
    const app = join(dir, "app");

    beforeAll(async () => {
      const tarballs = await packedTarballs();
      expect([...tarballs.keys()].sort()).toEqual([...PUBLISHABLE].sort());
      freshApp(dir, "app");
      // --ignore-scripts: nothing here has an install script to run (better-sqlite3, which has one,
      // is an optional peer, not installed); install-docs.test.ts checks that.
      await sh(
        "npm",
        [
          "install",
          ...PACKAGES.map((p) => tarballs.get(p)!),
          "zod@^4",
          "react@^19",
          "react-dom@^19",
          "@types/react@^19",
          "ai@^6",
          "@ai-sdk/react@^3",
          ...NPM_FLAGS,
          "--ignore-scripts",
        ],
        app,
      );
    }, TIMEOUT);

    // GLOVE_KEEP_INSTALL_DIR=1 keeps the app to look at (its path is in the failure messages).
    afterAll(
      () => process.env.GLOVE_KEEP_INSTALL_DIR === "1" || rmSync(dir, { recursive: true, force: true }),
      TIMEOUT,
    );

    it(
      "resolves every peer to our own packages, once",
      async () => {
        for (const pkg of PACKAGES) {
          expect(JSON.parse(readFileSync(join(app, "node_modules", pkg, "package.json"), "utf8")).version).toBe(
            "0.1.0",
          );
          for (const parent of PACKAGES)
            expect(existsSync(join(app, "node_modules", parent, "node_modules", pkg))).toBe(false);
        }
        const lock = JSON.parse(readFileSync(join(app, "package-lock.json"), "utf8")) as {
          packages: Record<string, { resolved?: string }>;
        };
        expect(lock.packages["node_modules/glove-core"]?.resolved).toMatch(/^file:/);
        // npm ls exits non-zero on a missing or invalid peer.
        await sh("npm", ["ls", "--all", ...PACKAGES], app);
      },
      TIMEOUT,
    );

    it(
      "installs glove-server without bullmq, ioredis or pg of its own, and names them when the scale mode is imported",
      async () => {
        const manifest = JSON.parse(
          readFileSync(join(app, "node_modules", "glove-server", "package.json"), "utf8"),
        ) as {
          dependencies?: Record<string, string>;
          peerDependenciesMeta?: Record<string, { optional?: boolean }>;
        };
        for (const name of ["bullmq", "ioredis", "pg"]) {
          expect(manifest.dependencies?.[name], name).toBeUndefined();
          expect(manifest.peerDependenciesMeta?.[name]?.optional, name).toBe(true);
        }
        // Nothing installed here needs a queue or Redis (pg is here: glove-postgres depends on it).
        for (const name of ["bullmq", "ioredis", "msgpackr"])
          expect(existsSync(join(app, "node_modules", name)), name).toBe(false);
        writeFileSync(
          join(app, "scale-missing.mjs"),
          `try { await import("glove-server/redis"); console.log("{}"); } catch (error) { console.log(JSON.stringify({ name: error.name, code: error.code, packageName: error.packageName, message: error.message })); }\n`,
        );
        const failure = JSON.parse(await sh(process.execPath, ["scale-missing.mjs"], app)) as Record<string, string>;
        expect(failure).toMatchObject({
          name: "MissingDependencyError",
          code: "GLOVE_MISSING_DEPENDENCY",
          packageName: "bullmq",
        });
        expect(failure.message).toContain("Install it in your app: npm install bullmq ioredis");
      },
      TIMEOUT,
    );

    it(
      "runs glove-core's first README example with plain node",
      async () => {
        writeFileSync(join(app, "core-example.mjs"), readmeExample("glove-core", 1));
        await sh(process.execPath, ["core-example.mjs"], app);
      },
      TIMEOUT,
    );

    it(
      "runs glove-server's first README example (glove-core peer, memory storage) with plain node",
      async () => {
        writeFileSync(join(app, "server-example.mjs"), readmeExample("glove-server", 1));
        await sh(process.execPath, ["server-example.mjs"], app);
      },
      TIMEOUT,
    );

    it(
      "runs glove-studio from its tarball: the command, its built page, and a README example",
      async () => {
        expect(await sh("npx", ["glove-studio", "--help"], app)).toContain("Usage: glove-studio");
        expect(existsSync(join(app, "node_modules", "glove-studio", "dist", "ui", "index.html"))).toBe(true);
        writeFileSync(join(app, "studio-example.mjs"), readmeExample("glove-studio", 2));
        await sh(process.execPath, ["studio-example.mjs"], app);
      },
      TIMEOUT,
    );

    it(
      "imports glove-mcp and glove-mcp/oauth, and folds a bridged tool into our Glove",
      async () => {
        writeFileSync(
          join(app, "mcp-example.mjs"),
          `import { Glove, Displaymanager } from "glove-core";
import { ScriptedModel } from "glove-core/testing";
import { bridgeMcpTool, mountMcp } from "glove-mcp";
import * as oauth from "glove-mcp/oauth";
if (typeof mountMcp !== "function" || Object.keys(oauth).length === 0) throw new Error("glove-mcp exports are missing");
const connection = { namespace: "demo", entry: { id: "demo", name: "Demo", description: "demo", url: "http://127.0.0.1:1/mcp" }, tools: [], callTool: async () => ({ content: [] }) };
const args = bridgeMcpTool(connection, { name: "echo", description: "echo", inputSchema: { type: "object", properties: {} } }, true);
new Glove({ model: new ScriptedModel([{ text: "ok" }]), displayManager: new Displaymanager(), systemPrompt: "", compaction_config: { compaction_instructions: "" } })
  .fold(args)
  .build();
`,
        );
        await sh(process.execPath, ["mcp-example.mjs"], app);
      },
      TIMEOUT,
    );

    it.each(["node10", "nodenext"])(
      "types compile for a consumer with moduleResolution %s",
      async (resolution) => {
        writeFileSync(
          join(app, "types-check.ts"),
          `import { Glove, Displaymanager, ConfigurationError, type GloveFoldArgs } from "glove-core";
import { ScriptedModel } from "glove-core/testing";
import { Displaymanager as DM } from "glove-core/display-manager";
import type * as Anthropic from "glove-core/models/anthropic";
import { bridgeMcpTool } from "glove-mcp";
import type { runMcpOAuth } from "glove-mcp/oauth";
import { createGloveServer, memoryStorage } from "glove-server";
import type { postgresStorage } from "glove-server/postgres";
import { SqliteStore } from "glove-sqlite";
import { PostgresStore } from "glove-postgres";
import { z } from "zod";

const tool: GloveFoldArgs<{ city: string }> = {
  name: "get_weather",
  description: "Get weather for a city.",
  inputSchema: z.object({ city: z.string() }),
  async do(input) { return { status: "success", data: input.city.toUpperCase() }; },
};
const glove = new Glove({ model: new ScriptedModel([{ text: "ok" }]), displayManager: new DM(), systemPrompt: "", compaction_config: { compaction_instructions: "" } }).fold(tool).build();
const server = createGloveServer({ agents: { a: ({ store }) => new Glove({ store, model: new ScriptedModel([]), displayManager: new Displaymanager(), systemPrompt: "", compaction_config: { compaction_instructions: "" } }) }, authenticate: () => null, store: memoryStorage() });
export type Checked = [typeof glove, typeof server, typeof bridgeMcpTool, typeof SqliteStore, typeof PostgresStore, typeof ConfigurationError, typeof Anthropic, typeof runMcpOAuth, typeof postgresStorage];
`,
        );
        const module = resolution === "node10" ? "ES2022" : "NodeNext";
        writeFileSync(
          join(app, `tsconfig.${resolution}.json`),
          JSON.stringify({
            compilerOptions: {
              module,
              moduleResolution: resolution,
              target: "ES2022",
              strict: true,
              esModuleInterop: true,
              noEmit: true,
            },
            files: ["types-check.ts"],
          }),
        );
        await sh(process.execPath, [TSC, "-p", `tsconfig.${resolution}.json`], app);
      },
      TIMEOUT,
    );

    /**
     * Every file in test-install/<folder>/ compiles together under strict + nodenext +
     * exactOptionalPropertyTypes against the tarballs, and each `*.run.ts` then runs with plain node
     * (transpiled, as a bundler-free app would ship it).
     */
    async function compileAndRun(folder: string, skipLibCheck: boolean): Promise<void> {
      const source = join(ROOT, "test-install", folder);
      const files = readdirSync(source)
        .filter((f) => f.endsWith(".ts"))
        .sort();
      expect(files.length).toBeGreaterThan(0);
      for (const file of files) writeFileSync(join(app, file), readFileSync(join(source, file), "utf8"));
      writeFileSync(
        join(app, `tsconfig.${folder}.json`),
        JSON.stringify({
          compilerOptions: {
            module: "NodeNext",
            moduleResolution: "nodenext",
            target: "ES2022",
            strict: true,
            exactOptionalPropertyTypes: true,
            skipLibCheck,
            noEmit: true,
            types: [],
          },
          files,
        }),
      );
      await sh(process.execPath, [TSC, "-p", `tsconfig.${folder}.json`], app);
      for (const file of files.filter((f) => f.endsWith(".run.ts"))) {
        const js = ts.transpileModule(readFileSync(join(source, file), "utf8"), {
          compilerOptions: {
            module: ts.ModuleKind.ESNext,
            target: ts.ScriptTarget.ES2022,
            verbatimModuleSyntax: false,
          },
        }).outputText;
        const out = file.replace(/\.ts$/, ".mjs");
        writeFileSync(join(app, out), js);
        await sh(process.execPath, [out], app);
      }
    }

    /** Code a newcomer writes, from the docs (test-install/newcomer/), our declaration files checked too. */
    it(
      "compiles and runs the newcomer's code under strict + nodenext + exactOptionalPropertyTypes",
      () => compileAndRun("newcomer", false),
      TIMEOUT,
    );

    /**
     * An AI SDK page moved onto glove-server (test-install/newcomer-ai-sdk/): useChat with
     * glove-react/ai-sdk's transport, and the transport run with node. skipLibCheck as in the AI SDK's
     * own templates: its declaration files do not compile under exactOptionalPropertyTypes.
     */
    it(
      "compiles an AI SDK useChat page on glove-react/ai-sdk and runs its transport",
      () => compileAndRun("newcomer-ai-sdk", true),
      TIMEOUT,
    );
  },
);
