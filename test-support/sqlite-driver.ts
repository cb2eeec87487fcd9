import {
  openSqliteDatabase,
  type OpenSqliteDatabaseOptions,
  type SqliteDatabase,
  type SqliteDriverChoice,
} from "glove-sqlite";

// The SQLite driver the SQLite tests run on: "auto" in the normal suite (better-sqlite3 on Node 20,
// node:sqlite on 22+); the node:sqlite run (packages/glove-sqlite/test/node-sqlite-driver.test.ts)
// sets GLOVE_TEST_SQLITE_DRIVER to force one in its child process.

/** The driver these tests ask for. */
export const testSqliteDriver: SqliteDriverChoice = parseDriver(process.env.GLOVE_TEST_SQLITE_DRIVER);

/** Opens a file on the tests' driver (what a raw better-sqlite3 handle was before there were two). */
export function openTestDatabase(
  path: string,
  options: Omit<OpenSqliteDatabaseOptions, "driver"> = {},
): SqliteDatabase {
  return openSqliteDatabase(path, { ...options, driver: testSqliteDriver });
}

function parseDriver(value: string | undefined): SqliteDriverChoice {
  if (value === undefined || value === "" || value === "auto") return "auto";
  if (value === "node:sqlite" || value === "better-sqlite3") return value;
  throw new Error(`GLOVE_TEST_SQLITE_DRIVER must be auto, node:sqlite or better-sqlite3; got ${JSON.stringify(value)}`);
}
