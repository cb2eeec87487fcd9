import { execFileSync, spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SqliteStore } from "glove-sqlite";
import { PassThrough } from "node:stream";
import { parseSession, sessionsDbPath } from "../src/agent.js";
import { runWalkthrough } from "../src/walkthrough.js";
import { SCENES } from "../src/walkthrough-script.js";
import { tempDir } from "./helpers.js";
import { SLOW_WORK_MS } from "../../../test-support/timeouts.js";

const root = fileURLToPath(new URL("../../..", import.meta.url));
let dir: string;
let cleanup: () => Promise<void>;

beforeAll(async () => {
  ({ dir, cleanup } = await tempDir());
  execFileSync("npx", ["tsc", "-b", "examples/terminal-agent"], { cwd: root, stdio: "pipe" });
}, SLOW_WORK_MS);
afterAll(() => cleanup());

function start(args: string[]) {
  const env: NodeJS.ProcessEnv = { ...process.env, GLOVE_DATA_DIR: dir };
  for (const key of [
    "GLOVE_SESSION",
    "GLOVE_PROVIDER",
    "ANTHROPIC_API_KEY",
    "OPENAI_API_KEY",
    "GEMINI_API_KEY",
    "OPENROUTER_API_KEY",
  ])
    delete env[key];
  return spawnSync(process.execPath, ["examples/terminal-agent/dist/main.js", ...args], {
    cwd: root,
    env,
    input: "",
    encoding: "utf8",
    timeout: SLOW_WORK_MS,
  });
}

describe("npm run terminal -- --session NAME", () => {
  it("keeps the conversation in a SQLite file and resumes it on the next run", async () => {
    const first = start(["--session", "groceries"]);
    expect(first.stderr).toBe("");
    expect(first.status).toBe(0);
    expect(first.stdout.split("\n")[1]).toBe(
      `Session "groceries" is new; it is kept in ${sessionsDbPath(dir)} (resume it with --session groceries).`,
    );

    const store = new SqliteStore({ dbPath: sessionsDbPath(dir), sessionId: "groceries" });
    const saved = await store.getMessages();
    store.close();
    expect(saved.length).toBeGreaterThan(10);
    expect(saved.some((m) => m.is_compaction)).toBe(true);

    const second = start(["--session=groceries"]);
    expect(second.stderr).toBe("");
    expect(second.status).toBe(0);
    expect(second.stdout.split("\n")[1]).toBe(
      `Session "groceries": resuming ${saved.length} earlier messages from ${sessionsDbPath(dir)}.`,
    );
    const reopened = new SqliteStore({ dbPath: sessionsDbPath(dir), sessionId: "groceries" });
    const after = await reopened.getMessages();
    reopened.close();
    // The walkthrough was finished: resuming replays nothing and keeps the history as it was.
    expect(second.stdout).toContain(`Resuming after scene ${SCENES.length} of ${SCENES.length}.`);
    expect(after).toEqual(saved);
  });

  it("resumes an unfinished walkthrough at the next scene instead of restarting the script", async () => {
    // One scene played interactively (Enter takes the suggestion), then the input ends.
    const input = new PassThrough();
    input.end("\n");
    process.env.GLOVE_SESSION = "halfway";
    try {
      await runWalkthrough({ input, output: new PassThrough(), dataDir: dir, interactive: true, delayMs: 0 });
    } finally {
      delete process.env.GLOVE_SESSION;
    }
    const resumed = start(["--session", "halfway"]);
    expect(resumed.stderr).toBe("");
    expect(resumed.stdout).toContain(`Resuming after scene 1 of ${SCENES.length}.`);
    expect(resumed.stdout).not.toContain(`you> ${SCENES[0]!.suggestion}`);
    expect(resumed.stdout).toContain(`you> ${SCENES[1]!.suggestion}`);
    const store = new SqliteStore({ dbPath: sessionsDbPath(dir), sessionId: "halfway" });
    const userTurns = (await store.getMessages()).filter(
      (m) => m.sender === "user" && !m.tool_results?.length && !m.is_compaction && !m.is_compaction_request,
    );
    store.close();
    expect(userTurns.map((m) => m.text)).toEqual(SCENES.map((scene) => scene.suggestion));
  });

  it("rejects a --session without a name, and unknown arguments, exiting 1", () => {
    const run = start(["--session"]);
    expect(run.status).toBe(1);
    expect(run.stderr).toBe("--session needs a name, e.g. npm run terminal -- --session groceries\n");
    expect(start(["--bogus"]).stderr).toMatch(
      /^unknown argument "--bogus"; usage: npm run terminal \[-- --session NAME\]/,
    );
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
