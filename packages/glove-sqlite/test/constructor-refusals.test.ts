/**
 * Every refusal of SqliteStore's constructor has decision 0011's shape: the store and session,
 * what is wrong, what to do next, "Nothing was changed." — and nothing was: no file is created,
 * a refused database keeps its rows and version.
 */
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { openSqliteDatabase, SCHEMA_VERSION, SqliteStore, SqliteStoreError } from "../src/index.js";
import { expectRefusal, INVALID_SESSION_IDS, rejectionOf, thrownBy } from "../../../test-support/store-refusals.js";

let dir: string | undefined;
afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});
function freshPath(): string {
  dir = mkdtempSync(join(tmpdir(), "glove-sqlite-refusals-"));
  return join(dir, "store.db");
}
/** Runs `change` on the file's tables directly, as an admin (or another program) would. */
function alter(dbPath: string, change: string): void {
  const db = openSqliteDatabase(dbPath);
  db.exec(change);
  db.close();
}

describe("SqliteStore constructor refusals", () => {
  for (const [label, id, shown] of INVALID_SESSION_IDS) {
    it(`refuses a session id ${label}, before any file is opened`, () => {
      const dbPath = freshPath();
      const error = thrownBy(() => new SqliteStore({ dbPath, sessionId: id as string }));
      expect(error).toBeInstanceOf(SqliteStoreError);
      expectRefusal(error, `SqliteStore session "${shown}": sessionId must be `, "GLOVE_STORE_INVALID");
      expect(existsSync(dbPath)).toBe(false);
    });
  }

  it("refuses a call without an options object (a clear error, never a TypeError)", () => {
    for (const options of [undefined, null, "glove.db"]) {
      const error = thrownBy(() => new SqliteStore(options as never));
      expectRefusal(error, "new SqliteStore(options): ", "GLOVE_CONFIGURATION");
    }
  });

  it("refuses options without dbPath or database", () => {
    const error = thrownBy(() => new SqliteStore({ sessionId: "s" }));
    expect(expectRefusal(error, 'SqliteStore session "s": ', "GLOVE_CONFIGURATION")).toContain("dbPath");
  });

  it("refuses a file it cannot open (a folder that does not exist)", () => {
    const dbPath = join(freshPath(), "..", "missing-folder", "store.db");
    const error = thrownBy(() => new SqliteStore({ dbPath, sessionId: "s" }));
    expectRefusal(error, 'SqliteStore session "s": cannot open the database file ', "GLOVE_CONFIGURATION");
    expect(existsSync(join(dbPath, ".."))).toBe(false);
  });

  it("refuses a sub-store namespace that makes an invalid session id", async () => {
    const store = new SqliteStore({ dbPath: ":memory:", sessionId: "parent" });
    try {
      const error = await rejectionOf(() => store.createSubAgentStore("plan\u0000ner", { durable: true }));
      expectRefusal(error, 'SqliteStore session "parent::plan\\u0000ner": sessionId must be ', "GLOVE_STORE_INVALID");
    } finally {
      store.close();
    }
  });

  describe("a database whose schema it cannot use", () => {
    async function storeWithOneMessage(dbPath: string): Promise<void> {
      const store = new SqliteStore({ dbPath, sessionId: "s" });
      await store.appendMessages([{ sender: "user", text: "keep me" }]);
      store.close();
    }
    function expectUnchanged(dbPath: string, version: number | undefined): void {
      const db = openSqliteDatabase(dbPath);
      try {
        expect(db.prepare("SELECT body FROM glove_messages").all()).toEqual([
          { body: JSON.stringify({ sender: "user", text: "keep me" }) },
        ]);
        if (version !== undefined)
          expect(db.prepare("SELECT version FROM glove_schema_version").all()).toEqual([{ version }]);
      } finally {
        db.close();
      }
    }
    const begins = 'SqliteStore session "customer-42": ';

    it("a newer schema version", async () => {
      const dbPath = freshPath();
      await storeWithOneMessage(dbPath);
      alter(dbPath, `UPDATE glove_schema_version SET version = ${SCHEMA_VERSION + 1}`);
      const error = thrownBy(() => new SqliteStore({ dbPath, sessionId: "customer-42" }));
      expectRefusal(error, begins, "GLOVE_STORE_SCHEMA");
      expectUnchanged(dbPath, SCHEMA_VERSION + 1);
    });

    it("an unreadable version table", async () => {
      const dbPath = freshPath();
      await storeWithOneMessage(dbPath);
      alter(dbPath, "DELETE FROM glove_schema_version");
      expectRefusal(
        thrownBy(() => new SqliteStore({ dbPath, sessionId: "customer-42" })),
        begins,
        "GLOVE_STORE_SCHEMA",
      );
      expectUnchanged(dbPath, undefined);
    });

    it("Glove tables without a version table", async () => {
      const dbPath = freshPath();
      await storeWithOneMessage(dbPath);
      alter(dbPath, "DROP TABLE glove_schema_version");
      expectRefusal(
        thrownBy(() => new SqliteStore({ dbPath, sessionId: "customer-42" })),
        begins,
        "GLOVE_STORE_SCHEMA",
      );
      expectUnchanged(dbPath, undefined);
    });
  });
});
