/**
 * Durable questions survive a killed process (embedded, no server): a child process asks a
 * question over a SQLite file and is killed with SIGKILL while it waits; another process over the
 * same file lists the question, answers it, and the turn finishes there — the tool's work before
 * the wait (a recorded step) and after it each happened once.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, it } from "vitest";
import { SqliteStore } from "../src/index.js";
import { buildForChildProcesses } from "../../../test-support/child-processes.js";
import { expectKilledQuestionAnsweredOnce } from "../../../test-support/durable-crash.js";
import { SLOW_WORK_MS } from "../../../test-support/timeouts.js";

// Child processes run the built packages (node cannot load the TypeScript sources).
const script = fileURLToPath(new URL("./fixtures/durable-booking.mjs", import.meta.url));
const dir = mkdtempSync(join(tmpdir(), "glove-sqlite-durable-"));
beforeAll(() => buildForChildProcesses("packages/glove-sqlite"), SLOW_WORK_MS);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("SqliteStore: a question outlives the process that asked it", () => {
  it.each([
    ["killed once, answered by the next process", 1],
    ["killed, restarted and killed again, then answered", 2],
  ])("%s", { timeout: SLOW_WORK_MS }, async (_label, restarts) => {
    const dbPath = join(dir, `booking-${restarts}.db`);
    const effectsFile = join(dir, `effects-${restarts}.txt`);
    writeFileSync(effectsFile, "");
    const store = new SqliteStore({ dbPath, sessionId: "table-for-two" });
    try {
      await expectKilledQuestionAnsweredOnce({ script, args: [dbPath, "table-for-two"], store, effectsFile }, restarts);
    } finally {
      store.close();
    }
  });
});
