/**
 * Durable questions survive a killed process (embedded, no server), on PostgreSQL: a child process
 * asks a question and is killed with SIGKILL while it waits; another process over the same
 * database lists the question, answers it, and the turn finishes there — the tool's work before
 * the wait (a recorded step) and after it each happened once.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import pg from "pg";
import { afterAll, beforeAll, describe, it } from "vitest";
import { PostgresStore } from "../src/index.js";
import { PG_URL, pgProblem, uniqueSchema } from "./pg-env.js";
import { buildForChildProcesses } from "../../../test-support/child-processes.js";
import { expectKilledQuestionAnsweredOnce } from "../../../test-support/durable-crash.js";
import { SLOW_WORK_MS } from "../../../test-support/timeouts.js";

// Skipped without a server, like the other glove-postgres tests (postgres.test.ts fails under CI then).
const enabled = (await pgProblem()) === undefined;
const script = fileURLToPath(new URL("./fixtures/durable-booking.mjs", import.meta.url));
const dir = mkdtempSync(join(tmpdir(), "glove-pg-durable-"));
const schemas: string[] = [];
let pool: pg.Pool;

beforeAll(() => {
  if (!enabled) return;
  pool = new pg.Pool({ connectionString: PG_URL, max: 4 });
  buildForChildProcesses("packages/glove-postgres");
}, SLOW_WORK_MS);
afterAll(async () => {
  rmSync(dir, { recursive: true, force: true });
  if (!enabled) return;
  for (const schema of schemas) await pool.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  await pool.end();
});

describe.runIf(enabled)("PostgresStore: a question outlives the process that asked it", () => {
  it.each([
    ["killed once, answered by the next process", 1],
    ["killed, restarted and killed again, then answered", 2],
  ])("%s", { timeout: SLOW_WORK_MS }, async (_label, restarts) => {
    const schema = uniqueSchema("durable");
    schemas.push(schema);
    const effectsFile = join(dir, `effects-${restarts}.txt`);
    writeFileSync(effectsFile, "");
    const store = await PostgresStore.open({ pool, schema, sessionId: "table-for-two" });
    try {
      await expectKilledQuestionAnsweredOnce(
        { script, args: [PG_URL, schema, "table-for-two"], store, effectsFile },
        restarts,
      );
    } finally {
      await store.close();
    }
  });
});
