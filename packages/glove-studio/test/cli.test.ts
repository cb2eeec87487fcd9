/**
 * `glove-studio` as a user runs it: a child process over a glove-server app's SQLite file or
 * PostgreSQL schema, printing its URL; usage errors exit 2 with a message, Ctrl-C stops it.
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { sqliteStorage } from "glove-server";
import { buildForChildProcesses, runNode } from "../../../test-support/child-processes.js";
import { PROMPT_WAIT_MS, SLOW_WORK_MS } from "../../../test-support/timeouts.js";
import { startApp } from "./support/seeded-app.js";
import { postgresKind, sqliteKind, type StorageKind } from "./support/storages.js";

// The command as npm links it (bin/glove-studio.mjs, which runs the built dist/cli/main.js).
const CLI = fileURLToPath(new URL("../bin/glove-studio.mjs", import.meta.url));

beforeAll(() => buildForChildProcesses("packages/glove-studio"), SLOW_WORK_MS);

/** CLIs started by a test, stopped after it even when it failed. */
const started = new Set<ChildProcess>();
afterEach(() => {
  for (const child of started) if (child.exitCode === null) child.kill("SIGKILL");
  started.clear();
});

/** Starts the CLI; resolves with its URL once it printed it. */
function startCli(args: string[], cwd?: string): Promise<{ child: ChildProcess; url: string; output: () => string }> {
  const child = spawn(process.execPath, [CLI, ...args, "--port", "0"], { stdio: ["ignore", "pipe", "pipe"], cwd });
  started.add(child);
  let out = "";
  child.stdout!.on("data", (c: Buffer) => (out += c.toString()));
  child.stderr!.on("data", (c: Buffer) => (out += c.toString()));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no URL printed: ${out}`)), PROMPT_WAIT_MS);
    child.stdout!.on("data", () => {
      const url = /open (http:\/\/127\.0\.0\.1:\d+\/)/.exec(out)?.[1];
      if (url) {
        clearTimeout(timer);
        resolve({ child, url, output: () => out });
      }
    });
    child.on("exit", (code) => reject(new Error(`exited ${code}: ${out}`)));
  });
}

const exited = (child: ChildProcess) =>
  new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));

function describeCli(kind: StorageKind): void {
  describe(`glove-studio over ${kind.name}`, () => {
    let place: Awaited<ReturnType<StorageKind["create"]>>;
    let conversation: string;
    beforeAll(async () => {
      place = await kind.create();
      const app = await startApp(place.open());
      conversation = await app.converse("alice", "assistant", ["weather Paris"]);
      await app.close();
    });
    afterAll(() => place?.dispose());

    it(
      "serves the stored conversations on 127.0.0.1 and stops on SIGINT",
      async () => {
        const { child, url, output } = await startCli(place.cliArgs);
        expect(output()).toContain("Glove Studio: open http://127.0.0.1:");
        expect(output()).not.toContain("s3cret-pw");
        const list = (await (await fetch(`${url}api/conversations`)).json()) as {
          total: number;
          items: Array<{ id: string; title: string }>;
        };
        expect(list.total).toBe(1);
        expect(list.items[0]).toMatchObject({ id: conversation, title: "weather Paris" });
        expect((await fetch(url)).status).toBe(200);
        const code = exited(child);
        child.kill("SIGINT");
        expect(await code).toBe(0);
      },
      SLOW_WORK_MS,
    );
  });
}

describeCli(sqliteKind);
describeCli(postgresKind);

describe("without --sqlite", () => {
  let dir: string;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "glove-studio-cwd-"));
    // An app one folder down, as the Glove repository's web demo is (examples/web-chat/.glove).
    const app = await startApp(sqliteStorage({ path: join(dir, "apps", "chat", ".glove", "glove.db") }));
    await app.converse("alice", "assistant", ["weather Quito"]);
    await app.close();
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it(
    "opens the only .glove/glove.db below the folder it runs in, and says which",
    async () => {
      const { child, url, output } = await startCli([], dir);
      expect(output()).toContain(join("apps", "chat", ".glove", "glove.db"));
      const list = (await (await fetch(`${url}api/conversations`)).json()) as { items: Array<{ title: string }> };
      expect(list.items.map((c) => c.title)).toEqual(["weather Quito"]);
      const code = exited(child);
      child.kill("SIGTERM");
      expect(await code).toBe(0);
    },
    SLOW_WORK_MS,
  );

  it("asks which when there are several, and explains when there is none", () => {
    mkdirSync(join(dir, "other", ".glove"), { recursive: true });
    writeFileSync(join(dir, "other", ".glove", "glove.db"), "");
    const several = spawnSync(process.execPath, [CLI, "--port", "0"], {
      cwd: dir,
      encoding: "utf8",
      timeout: PROMPT_WAIT_MS,
    });
    expect(several.status).toBe(2);
    expect(several.stderr).toContain(join("other", ".glove", "glove.db"));
    expect(several.stderr).toContain(join("apps", "chat", ".glove", "glove.db"));
    const empty = mkdtempSync(join(tmpdir(), "glove-studio-empty-"));
    const none = spawnSync(process.execPath, [CLI, "--port", "0"], {
      cwd: empty,
      encoding: "utf8",
      timeout: PROMPT_WAIT_MS,
    });
    rmSync(empty, { recursive: true, force: true });
    expect(none.status).toBe(2);
    expect(none.stderr).toContain("No glove-server data in ./.glove/glove.db");
  });
});

describe("usage errors", () => {
  it(
    "explain themselves and exit 2",
    async () => {
      const missing = await runNode(CLI, ["--sqlite", "/nonexistent/glove.db"]);
      expect(missing.code).toBe(2);
      expect(missing.out).toContain("No glove-server data at /nonexistent/glove.db");
      for (const args of [
        ["--sqlite", "a.db", "--postgres", "postgres://x@h/d"],
        ["--port", "http"],
        ["--postgres", "mysql://x"],
        ["--what"],
        ["--schema", "s"],
      ]) {
        const run = await runNode(CLI, args);
        expect(run.code, args.join(" ")).toBe(2);
        expect(run.out).toContain("Usage: glove-studio");
      }
      const help = await runNode(CLI, ["--help"]);
      expect(help.code).toBe(0);
      expect(help.out).toContain("--postgres <url>");
    },
    SLOW_WORK_MS,
  );
});
