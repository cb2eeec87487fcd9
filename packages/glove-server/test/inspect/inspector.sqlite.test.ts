import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe } from "vitest";
import { sqliteStorage } from "glove-server";
import { inspectorCases } from "./inspector-cases.js";
import { testSqliteDriver } from "../../../../test-support/sqlite-driver.js";

describe("storage inspection on SQLite", () => {
  inspectorCases(async (traces) =>
    sqliteStorage({
      path: join(mkdtempSync(join(tmpdir(), "glove-inspect-")), "glove.db"),
      driver: testSqliteDriver,
      ...(traces ? { traces } : {}),
    }),
  );
});
