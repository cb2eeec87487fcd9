import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { afterEach, describe, expect, it } from "vitest";
import { ConfigurationError, GloveError } from "glove-core";
import {
  immediateTransaction,
  openSqliteDatabase,
  resolveSqliteDriver,
  SqliteDriverError,
  sqliteDriverOf,
  SqliteStore,
  type SqliteDatabase,
} from "../src/index.js";
import type { NodeSqliteDatabase } from "../src/driver/node-sqlite.js";
import { openTestDatabase, testSqliteDriver } from "../../../test-support/sqlite-driver.js";

// What glove-sqlite relies on from a driver, checked on the one these tests run on (better-sqlite3
// under Node 20, node:sqlite in node-sqlite-driver.test.ts's Node 22 run): both must answer alike.
const driver = resolveSqliteDriver(testSqliteDriver);
const nodeHasSqlite = (() => {
  try {
    return process.getBuiltinModule?.("node:sqlite") !== undefined;
  } catch {
    return false;
  }
})();

let open: SqliteDatabase[] = [];
let dirs: string[] = [];
afterEach(() => {
  for (const db of open) if (db.open) db.close();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  open = [];
  dirs = [];
});
function database(): SqliteDatabase {
  const db = openTestDatabase(":memory:");
  open.push(db);
  db.exec("CREATE TABLE t (id INTEGER PRIMARY KEY, n INTEGER, s TEXT)");
  return db;
}

describe(`the SQLite driver contract (${driver})`, () => {
  it("auto takes node:sqlite where Node.js has it, else better-sqlite3", () => {
    expect(resolveSqliteDriver("auto")).toBe(nodeHasSqlite ? "node:sqlite" : "better-sqlite3");
    expect(sqliteDriverOf(database())).toBe(driver);
  });

  it("binds named parameters without their prefix, ignoring keys the statement does not use", () => {
    const db = database();
    const result = db.prepare("INSERT INTO t (n, s) VALUES (@n, @s)").run({ n: 1, s: "a", unused: "x" });
    expect(result).toMatchObject({ changes: 1, lastInsertRowid: 1 });
    expect(typeof result.changes).toBe("number");
    const row = db.prepare("SELECT id, n, s FROM t WHERE s = ?").get("a");
    // A plain object, as better-sqlite3 reads it (node:sqlite's rows have no prototype).
    expect(Object.getPrototypeOf(row)).toBe(Object.prototype);
    expect(row).toEqual({ id: 1, n: 1, s: "a" });
    expect(db.prepare("SELECT n FROM t WHERE s = 'none'").get()).toBeUndefined();
  });

  it("reads any integer as a number, rounded past 2^53 (a row check then refuses it with a typed error)", () => {
    fc.assert(
      fc.property(fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }), (value) => {
        const db = database();
        db.prepare("INSERT INTO t (n) VALUES (?)").run(value);
        const { n } = db.prepare("SELECT n FROM t").get() as { n: unknown };
        expect(n).toBe(Number(value));
        db.close();
      }),
      { numRuns: 50 },
    );
  });

  it("iterates rows, and all() reads them in order", () => {
    const db = database();
    const insert = db.prepare("INSERT INTO t (n) VALUES (?)");
    for (let i = 0; i < 5; i++) insert.run(i);
    expect([...db.prepare("SELECT n FROM t ORDER BY n").iterate()]).toEqual([0, 1, 2, 3, 4].map((n) => ({ n })));
    expect(db.prepare("SELECT n FROM t WHERE n > ? ORDER BY n").all(2)).toEqual([{ n: 3 }, { n: 4 }]);
  });

  it("immediateTransaction commits, rolls back on a throw, and nests as a savepoint", () => {
    const db = database();
    const insert = db.prepare("INSERT INTO t (n) VALUES (?)");
    const count = () => (db.prepare("SELECT count(*) AS c FROM t").get() as { c: number }).c;
    const inner = immediateTransaction(db, (n: number) => {
      insert.run(n);
      if (n < 0) throw new Error("refused");
    });
    const outer = immediateTransaction(db, () => {
      expect(db.inTransaction).toBe(true);
      inner(1);
      expect(() => inner(-1)).toThrow("refused"); // undoes only its own row
      inner(2);
    });
    outer();
    expect(db.inTransaction).toBe(false);
    expect(count()).toBe(2);
    expect(() =>
      immediateTransaction(db, () => {
        insert.run(3);
        throw new Error("all of it");
      })(),
    ).toThrow("all of it");
    expect(count()).toBe(2);
    expect(db.inTransaction).toBe(false);
  });

  it("a store on it names its driver", () => {
    const dir = mkdtempSync(join(tmpdir(), "glove-sqlite-driver-"));
    dirs.push(dir);
    const store = new SqliteStore({ dbPath: join(dir, "a.db"), sessionId: "s", driver: testSqliteDriver });
    expect(store.driver).toBe(driver);
    store.close();
  });

  it("an unknown driver name is a ConfigurationError", () => {
    expect(() => openSqliteDatabase(":memory:", { driver: "sqlite3" as never })).toThrow(ConfigurationError);
  });
});

// Each edge is defined where it can happen: the probe where node:sqlite runs, the refusal where it is missing.
if (driver === "node:sqlite")
  describe("node:sqlite on a Node.js before 22.16 (no isTransaction)", () => {
    it("finds an open transaction by the probe, as isTransaction would", () => {
      const db = database() as NodeSqliteDatabase;
      expect(db.probeTransaction()).toBe(false);
      db.exec("BEGIN");
      expect(db.probeTransaction()).toBe(true);
      expect(db.inTransaction).toBe(true);
      db.exec("ROLLBACK");
      expect(db.probeTransaction()).toBe(false);
    });
  });

if (!nodeHasSqlite)
  describe("node:sqlite asked for on a Node.js without it", () => {
    it("is a SqliteDriverError that says what to do", () => {
      let error: unknown;
      try {
        new SqliteStore({ dbPath: ":memory:", sessionId: "s", driver: "node:sqlite" });
      } catch (e) {
        error = e;
      }
      expect(SqliteDriverError.isInstance(error)).toBe(true);
      expect(GloveError.isInstance(error) && error.code).toBe("GLOVE_MISSING_DEPENDENCY");
      expect((error as Error).message).toMatch(/Node\.js 22\.13 or newer.*npm install better-sqlite3/);
    });
  });
