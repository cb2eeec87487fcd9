import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, it } from "vitest";
import { storeConformanceCases } from "glove-core/testing";
import BetterSqlite3 from "better-sqlite3";
import { GroupCommit, SqliteStore } from "../src/index.js";

const dir = mkdtempSync(join(tmpdir(), "glove-sqlite-conformance-"));
const dbPath = join(dir, "conformance.db");
let open: SqliteStore[] = [];
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("SqliteStore conformance", () => {
  // Every createStore opens its own connection, as a second process would.
  const cases = storeConformanceCases({
    createStore: async (sessionId) => {
      const store = new SqliteStore({ dbPath, sessionId });
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
  let shared: BetterSqlite3.Database | undefined;
  const cases = storeConformanceCases({
    createStore: async (sessionId) => {
      shared ??= new BetterSqlite3(join(dir, "group-commit.db"));
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
