import { execFileSync, spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { tempDir } from "./helpers.js";

const root = fileURLToPath(new URL("../../..", import.meta.url));
let dir: string;
let cleanup: () => Promise<void>;

beforeAll(async () => {
  ({ dir, cleanup } = await tempDir());
  execFileSync("npx", ["tsc", "-b", "examples/terminal-agent"], { cwd: root, stdio: "pipe" });
}, 180_000);
afterAll(() => cleanup());

describe("node examples/terminal-agent/dist/main.js", () => {
  it("plays the offline walkthrough when stdin is not a TTY, and exits 0", () => {
    const env: NodeJS.ProcessEnv = { ...process.env, GLOVE_DATA_DIR: dir };
    for (const key of ["GLOVE_PROVIDER", "ANTHROPIC_API_KEY", "OPENAI_API_KEY", "GEMINI_API_KEY", "OPENROUTER_API_KEY"]) delete env[key];
    const run = spawnSync(process.execPath, ["examples/terminal-agent/dist/main.js"], {
      cwd: root,
      env,
      input: "",
      encoding: "utf8",
      timeout: 30_000,
    });
    expect(run.stderr).toBe("");
    expect(run.status).toBe(0);
    expect(run.stdout.split("\n")[0]).toMatch(/^No model provider configured .*; playing the offline walkthrough\.$/);
    expect(run.stdout).toContain("Allow delete_note? [y/N/always] y");
    expect(run.stdout).toContain("That was the offline walkthrough.");
  });
});
