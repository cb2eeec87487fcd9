import { execFileSync, spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SqliteStore } from "glove-sqlite";
import { parseSession, sessionsDbPath } from "../src/agent.js";
import { tempDir } from "./helpers.js";

const root = fileURLToPath(new URL("../../..", import.meta.url));
let dir: string;
let cleanup: () => Promise<void>;

beforeAll(async () => {
  ({ dir, cleanup } = await tempDir());
  execFileSync("npx", ["tsc", "-b", "examples/terminal-agent"], { cwd: root, stdio: "pipe" });
}, 180_000);
afterAll(() => cleanup());

function start(args: string[]) {
  const env: NodeJS.ProcessEnv = { ...process.env, GLOVE_DATA_DIR: dir };
  for (const key of ["GLOVE_SESSION", "GLOVE_PROVIDER", "ANTHROPIC_API_KEY", "OPENAI_API_KEY", "GEMINI_API_KEY", "OPENROUTER_API_KEY"]) delete env[key];
  return spawnSync(process.execPath, ["examples/terminal-agent/dist/main.js", ...args], { cwd: root, env, input: "", encoding: "utf8", timeout: 30_000 });
}

describe("npm start -- --session NAME", () => {
  it("keeps the conversation in a SQLite file and resumes it on the next run", async () => {
    const first = start(["--session", "groceries"]);
    expect(first.stderr).toBe("");
    expect(first.status).toBe(0);
    expect(first.stdout.split("\n")[1]).toBe(`Session "groceries" is new; it is kept in ${sessionsDbPath(dir)} (resume it with --session groceries).`);

    const store = new SqliteStore({ dbPath: sessionsDbPath(dir), sessionId: "groceries" });
    const saved = await store.getMessages();
    store.close();
    expect(saved.length).toBeGreaterThan(10);
    expect(saved.some((m) => m.is_compaction)).toBe(true);

    const second = start(["--session=groceries"]);
    expect(second.stderr).toBe("");
    expect(second.status).toBe(0);
    expect(second.stdout.split("\n")[1]).toBe(`Session "groceries": resuming ${saved.length} earlier messages from ${sessionsDbPath(dir)}.`);
    const reopened = new SqliteStore({ dbPath: sessionsDbPath(dir), sessionId: "groceries" });
    const after = await reopened.getMessages();
    reopened.close();
    expect(after.slice(0, saved.length)).toEqual(saved);
    expect(after.length).toBeGreaterThan(saved.length);
  });

  it("rejects a --session without a name, and unknown arguments, exiting 1", () => {
    const run = start(["--session"]);
    expect(run.status).toBe(1);
    expect(run.stderr).toBe("--session needs a name, e.g. npm start -- --session groceries\n");
    expect(start(["--bogus"]).stderr).toMatch(/^unknown argument "--bogus"; usage: npm start \[-- --session NAME\]/);
  });
});

describe("parseSession", () => {
  it("reads --session NAME, --session=NAME and $GLOVE_SESSION (the flag wins)", () => {
    expect(parseSession([], {})).toEqual({});
    expect(parseSession(["--session", "a"], {})).toEqual({ session: "a" });
    expect(parseSession(["--session=b"], {})).toEqual({ session: "b" });
    expect(parseSession([], { GLOVE_SESSION: "env" })).toEqual({ session: "env" });
    expect(parseSession(["--session", "flag"], { GLOVE_SESSION: "env" })).toEqual({ session: "flag" });
    expect(parseSession(["--session", "--x"], {}).problem).toMatch(/needs a name/);
  });
});
