import Database from "better-sqlite3";
import fc from "fast-check";
import { afterEach, describe, expect, it } from "vitest";
import { SqliteStore, type SqliteDatabase } from "../src/index.js";
import { statementsFor } from "../src/statement-cache.js";

/** Counts the statements `db` prepares from now on. */
function countPrepares(db: Database.Database): { count: number } {
  const counter = { count: 0 };
  const prepare = db.prepare.bind(db);
  db.prepare = ((sql: string) => {
    counter.count++;
    return prepare(sql);
  }) as typeof db.prepare;
  return counter;
}

// A server opens one SqliteStore per conversation on one shared database: the stores share their
// prepared statements (made once per connection) and still keep every session's data apart.
describe("stores on one connection share prepared statements", () => {
  const databases: Database.Database[] = [];
  afterEach(() => {
    for (const db of databases.splice(0)) db.close();
  });
  const open = () => {
    const db = new Database(":memory:");
    databases.push(db);
    return db;
  };

  it("prepares once per connection and preparer", () => {
    const [a, b] = [open(), open()];
    let made = 0;
    const prepare = (db: SqliteDatabase) => ({ made: ++made, one: db.prepare("SELECT 1 AS one") });
    const first = statementsFor(a, prepare);
    expect(statementsFor(a, prepare)).toBe(first);
    expect(statementsFor(b, prepare)).not.toBe(first);
    expect(made).toBe(2);
    expect(first.one.get()).toEqual({ one: 1 });
  });

  it("opening another store on the same database prepares nothing new", () => {
    const db = new Database(":memory:");
    databases.push(db);
    new SqliteStore({ database: db, sessionId: "first" });
    const prepared = countPrepares(db);
    new SqliteStore({ database: db, sessionId: "second" });
    // Only the schema check at open prepares (a handful), not the stores' ~60 statements.
    expect(prepared.count).toBeLessThan(10);
  });

  it("what a turn calls on an open store (pages, appends, counters) prepares nothing", async () => {
    const db = open();
    const store = new SqliteStore({ database: db, sessionId: "turn" });
    await store.appendMessages([{ sender: "user", text: "warm", id: "m0" }]);
    await store.getMessagePage(0, 1);
    const prepared = countPrepares(db);
    // A Glove's cached-view check reads a one-message page before every model call.
    for (let i = 1; i <= 3; i++) {
      const page = await store.getMessagePage(i - 1, 1);
      expect(page).toEqual({ messages: [expect.objectContaining({ id: `m${i - 1}` })], total: i });
      await store.addTokens({ tokens_in: 1, tokens_out: 2 });
      await store.appendMessages([{ sender: "agent", text: `answer ${i}`, id: `m${i}` }]);
      await store.incrementTurn();
    }
    expect(await store.getMessagePage(10, 5)).toEqual({ messages: [], total: 4 });
    await expect(store.getMessagePage(-1, 1)).rejects.toMatchObject({ code: "GLOVE_STORE_INVALID" });
    expect(prepared.count).toBe(0);
  });

  it("a model call writes its rows and updates the session row once, on statements prepared once", async () => {
    const db = open();
    const store = new SqliteStore({ database: db, sessionId: "call" });
    await store.recordModelCall({
      messages: [{ sender: "agent", text: "warm" }],
      tokens: { tokens_in: 1, tokens_out: 1 },
    });
    const changes = db.prepare("SELECT total_changes() AS n");
    const before = (changes.get() as { n: number }).n;
    const prepared = countPrepares(db);
    for (let i = 0; i < 3; i++) {
      await store.recordModelCall({
        messages: [
          { sender: "agent", text: `a${i}` },
          { sender: "agent", text: `b${i}` },
        ],
        tokens: { tokens_in: 2, tokens_out: 1 },
      });
    }
    expect(prepared.count).toBe(0);
    // Per call: two message rows and one update of the session row (the three calls made three).
    expect((changes.get() as { n: number }).n - before).toBe(3 * 3);
    expect([await store.messageCount(), await store.getTokenCount(), await store.getTurnCount()]).toEqual([7, 11, 4]);
  });

  it("interleaved writes through many stores on one database land in their own sessions (property)", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.tuple(fc.nat({ max: 4 }), fc.string({ maxLength: 12 })), { maxLength: 40 }),
        async (writes) => {
          const db = open();
          const stores = Array.from({ length: 5 }, (_, i) => new SqliteStore({ database: db, sessionId: `s${i}` }));
          const expected: string[][] = stores.map(() => []);
          for (const [i, text] of writes) {
            await stores[i]!.appendMessages([{ sender: "user", text }]);
            expected[i]!.push(text);
          }
          for (const [i, store] of stores.entries()) {
            expect((await store.getMessages()).map((m) => m.text)).toEqual(expected[i]);
            expect(await store.messageCount()).toBe(expected[i]!.length);
          }
        },
      ),
      { numRuns: 40 },
    );
  });
});
