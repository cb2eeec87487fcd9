import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sqliteStorage } from "glove-server";
import { describeServerSuite } from "./suite/server-suite.js";
import { testSqliteDriver } from "../../../test-support/sqlite-driver.js";

describeServerSuite("SQLite (the embedded default)", () =>
  sqliteStorage({ path: join(mkdtempSync(join(tmpdir(), "glove-server-")), "glove.db"), driver: testSqliteDriver }),
);
