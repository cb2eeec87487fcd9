import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, it } from "vitest";
import { storeConformanceCases } from "glove-core/testing";
import { SqliteStore } from "../src/index.js";

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
    require: ["tasks", "replaceTasks", "permissions", "inbox", "consumeInboxItem", "waits", "subAgentStores", "messageCount", "messagesSinceLastCompaction", "messagePage", "branches", "recordModelCall"],
  });
  for (const c of cases) it(c.name, c.run);
});
