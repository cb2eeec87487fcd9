/**
 * glove-core's fault-injection property for durable questions (test/runtime/durable-questions-faults
 * there), on SQLite: each process opens its own connection to one file, and dies at a store call
 * of the turn (the call landing or not); the processes that take over may die too. The
 * conversation ends valid, no question is answered twice, the tool's effects happen once (once
 * more only for a crash between a step's work and its record, or the tool's end and its result).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, it } from "vitest";
import { SqliteStore } from "../src/index.js";
import { checkCrashSequences, checkEveryCrashPoint } from "../../glove-core/test/runtime/support/crash-properties.js";
import type { NewConversation } from "../../glove-core/test/runtime/support/order-scenario.js";
import { SLOW_WORK_MS } from "../../../test-support/timeouts.js";

const dir = mkdtempSync(join(tmpdir(), "glove-sqlite-faults-"));
const dbPath = join(dir, "shop.db");
const open: SqliteStore[] = [];
let conversations = 0;

/** A new session in the file per scenario; a connection per process (closed when the next scenario starts). */
const conversation: NewConversation = () => {
  for (const store of open.splice(0)) store.close();
  const sessionId = `shop-${++conversations}`;
  return () => {
    const store = new SqliteStore({ dbPath, sessionId });
    open.push(store);
    return store;
  };
};

afterAll(() => {
  for (const store of open.splice(0)) store.close();
  rmSync(dir, { recursive: true, force: true });
});

describe("durable questions, the process killed at every await point (SQLite)", () => {
  it.each(["async", "sync"] as const)(
    "one crash at each store call of the turn, landed or not (UI answers %s)",
    { timeout: SLOW_WORK_MS },
    async (ui) => {
      await checkEveryCrashPoint(ui, conversation);
    },
  );

  it(
    "up to three crashes in a row, the processes taking over dying too (fast-check)",
    { timeout: SLOW_WORK_MS },
    async () => {
      await checkCrashSequences(Number(process.env.GLOVE_FUZZ_RUNS ?? 100), conversation);
    },
  );
});
