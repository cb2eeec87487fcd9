import { execFileSync, spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { tempDir } from "./helpers.js";
import { getAvailableProviders } from "glove-core";
import { SLOW_WORK_MS } from "../../../test-support/timeouts.js";

const root = fileURLToPath(new URL("../../..", import.meta.url));
let dir: string;
let cleanup: () => Promise<void>;

beforeAll(async () => {
  ({ dir, cleanup } = await tempDir());
  execFileSync("npx", ["tsc", "-b", "examples/terminal-agent"], { cwd: root, stdio: "pipe" });
}, SLOW_WORK_MS);
afterAll(() => cleanup());

describe("node examples/terminal-agent/dist/main.js", () => {
  it("plays the offline walkthrough when stdin is not a TTY, and exits 0", () => {
    const env: NodeJS.ProcessEnv = { ...process.env, GLOVE_DATA_DIR: dir };
    // No provider may be configured, whatever this machine's environment holds.
    const providerVars = getAvailableProviders()
      .map((p) => p.envVar)
      .filter(Boolean);
    for (const key of [
      ...providerVars,
      "GLOVE_PROVIDER",
      "GLOVE_MODEL",
      "GLOVE_BASE_URL",
      "AWS_SECRET_ACCESS_KEY",
      "AWS_BEARER_TOKEN_BEDROCK",
    ]) {
      delete env[key as string];
    }
    const run = spawnSync(process.execPath, ["examples/terminal-agent/dist/main.js"], {
      cwd: root,
      env,
      input: "",
      encoding: "utf8",
      timeout: SLOW_WORK_MS,
    });
    expect(run.stderr).toBe("");
    expect(run.status).toBe(0);
    expect(run.stdout.split("\n")[0]).toMatch(/^No model provider configured .*; playing the offline walkthrough\.$/);
    expect(run.stdout).toContain("Allow delete_note? [y/N/always] y");
    expect(run.stdout).toContain("That was the offline walkthrough.");
  });
});
