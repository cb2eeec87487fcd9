import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { storeConformanceCases } from "glove-core/testing";
import { GroupCommit, SqliteStore, type SqliteDatabase } from "../src/index.js";
import { openTestDatabase, testSqliteDriver } from "../../../test-support/sqlite-driver.js";

const dir = mkdtempSync(join(tmpdir(), "glove-sqlite-conformance-"));
const dbPath = join(dir, "conformance.db");
let open: SqliteStore[] = [];
afterAll(() => rmSync(dir, { recursive: true, force: true }));

it("runs on the driver asked for (GLOVE_TEST_SQLITE_DRIVER; auto: node:sqlite where Node.js has it)", () => {
  const store = new SqliteStore({ dbPath: join(dir, "driver.db"), sessionId: "driver", driver: testSqliteDriver });
  const nodeHasSqlite =
    Number(process.versions.node.split(".")[0]) >= 23 || /^22\.(1[3-9]|[2-9]\d)\./.test(process.versions.node);
  expect(store.driver).toBe(
    testSqliteDriver === "auto" ? (nodeHasSqlite ? "node:sqlite" : "better-sqlite3") : testSqliteDriver,
  );
  store.close();
});

describe("SqliteStore conformance", () => {
  // Every createStore opens its own connection, as a second process would.
  const cases = storeConformanceCases({
    createStore: async (sessionId) => {
      const store = new SqliteStore({ dbPath, sessionId, driver: testSqliteDriver });
      open.push(store);
      return store;
    },
    cleanup: async () => {
      for (const store of open) store.close();
      open = [];
    },
    require: [
      "tasks",
      "replaceTasks",
      "permissions",
      "inbox",
      "consumeInboxItem",
      "waits",
      "subAgentStores",
      "messageCount",
      "messagesSinceLastCompaction",
      "messagePage",
      "branches",
      "recordModelCall",
    ],
  });
  for (const c of cases) it(c.name, c.run);
});

describe("SqliteStore conformance, group commit on one shared connection (as glove-server's sqliteStorage)", () => {
  let shared: SqliteDatabase | undefined;
  const cases = storeConformanceCases({
    createStore: async (sessionId) => {
      shared ??= openTestDatabase(join(dir, "group-commit.db"));
      return new SqliteStore({ database: shared, sessionId, groupCommit: true });
    },
    cleanup: async () => {
      GroupCommit.of(shared!)?.flush();
      shared?.close();
      shared = undefined;
      rmSync(join(dir, "group-commit.db"), { force: true });
    },
    require: [
      "tasks",
      "replaceTasks",
      "permissions",
      "inbox",
      "consumeInboxItem",
      "waits",
      "subAgentStores",
      "messageCount",
      "messagesSinceLastCompaction",
      "messagePage",
      "branches",
      "recordModelCall",
    ],
  });
  for (const c of cases) it(c.name, c.run);
});
