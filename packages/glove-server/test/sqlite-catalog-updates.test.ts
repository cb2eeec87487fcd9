import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { SqliteCatalog, type ConversationChanges, type ConversationRecord } from "glove-server";
import { catalogRecord } from "./support/catalog-record.js";
import { openTestDatabase } from "../../../test-support/sqlite-driver.js";

// Every turn updates the catalog at its start and its end with the same columns: the SQLite
// catalog prepares each UPDATE once and reuses it, and what it writes is what was asked.
describe("SqliteCatalog updates", () => {
  it("prepares one UPDATE per set of columns, however many turns run", async () => {
    const db = openTestDatabase(":memory:");
    const catalog = new SqliteCatalog(db);
    await catalog.create(catalogRecord("c"));
    const prepare = db.prepare.bind(db);
    const sql: string[] = [];
    db.prepare = ((text: string) => {
      sql.push(text);
      return prepare(text);
    }) as typeof db.prepare;
    for (let turn = 0; turn < 20; turn++) {
      await catalog.update("c", { runningTurnId: `t${turn}`, updatedAt: `2024-03-${10 + turn}` });
      await catalog.update("c", { runningTurnId: null, lastTurnId: `t${turn}` });
    }
    expect(sql.filter((text) => text.startsWith("UPDATE"))).toHaveLength(2);
    expect(await catalog.get("c")).toMatchObject({ runningTurnId: null, lastTurnId: "t19", updatedAt: "2024-03-29" });
    db.close();
  });

  it("any sequence of updates to two conversations leaves each with its own last values (property)", async () => {
    const change = fc.record(
      {
        title: fc.option(fc.string({ maxLength: 8 }), { nil: null }),
        runningTurnId: fc.option(fc.string({ maxLength: 4 }), { nil: null }),
        eventIdsReserved: fc.nat(),
      },
      { requiredKeys: [] },
    );
    await fc.assert(
      fc.asyncProperty(fc.array(fc.tuple(fc.constantFrom("a", "b"), change), { maxLength: 30 }), async (updates) => {
        const db = openTestDatabase(":memory:");
        const catalog = new SqliteCatalog(db);
        const expected: Record<string, ConversationRecord> = { a: catalogRecord("a"), b: catalogRecord("b") };
        await catalog.create(expected.a!);
        await catalog.create(expected.b!);
        for (const [id, changes] of updates) {
          await catalog.update(id, changes as ConversationChanges);
          expected[id] = { ...expected[id]!, ...changes };
        }
        for (const id of ["a", "b"]) expect(await catalog.get(id)).toMatchObject(expected[id]!);
        db.close();
      }),
      { numRuns: 50 },
    );
  });
});
