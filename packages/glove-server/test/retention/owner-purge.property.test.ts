/**
 * purgeOwner leaves no row of the owner's conversations (sub-agent stores included) in any table
 * of Glove's the database lists — except the documented exceptions — and changes nothing another
 * owner can read. Real SQLite files and PostgreSQL schemas, through the server's own method.
 */
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { createGloveServer, EXEMPT_TABLES } from "../../src/index.js";
import { authenticate, testAgent } from "../support/harness.js";
import { dropTestSchemas, STORAGES } from "./support/storages.js";
import { familyIds, rowsNaming } from "./support/table-rows.js";
import { buildWorld, conversationSpec, readConversation } from "./support/world.js";

afterAll(dropTestSchemas);

describe.each(STORAGES)("purgeOwner (%s)", (label, makeStorage) => {
  it("removes everything the owner has in every table, and nothing of anyone else", async () => {
    const storage = makeStorage();
    const server = createGloveServer({
      agents: { default: testAgent({ script: [], delayMs: 0, toolSignals: [] }) },
      authenticate,
      store: storage,
    });
    const db = storage.retention!;
    await fc.assert(
      fc.asyncProperty(
        fc.array(conversationSpec, { minLength: 1, maxLength: 6 }),
        fc.constantFrom("alice", "bob", "carol"),
        async (specs, owner) => {
          const world = await buildWorld(storage, specs);
          // Every owner's earlier conversations too: the purge must find them all.
          for (const c of world) await storage.turnFence?.take(c.id);
          const others = world.filter((c) => c.spec.owner !== owner);
          const before = await Promise.all(others.map((c) => readConversation(storage, c.id)));
          const mine = world.filter((c) => c.spec.owner === owner);
          const families = (await Promise.all(mine.map((c) => familyIds(db, c.id)))).flat();

          const report = await server.purgeOwner(owner);

          expect(report.conversations).toBeGreaterThanOrEqual(mine.length);
          const left = families.length === 0 ? {} : await rowsNaming(db, families);
          for (const table of Object.keys(left)) expect(EXEMPT_TABLES).toHaveProperty(table);
          expect(await storage.catalog.listByOwner(owner, 10)).toEqual([]);
          expect(await Promise.all(others.map((c) => readConversation(storage, c.id)))).toEqual(before);
        },
      ),
      { numRuns: label === "SQLite" ? 20 : 10 },
    );
    await server.close();
  });
});
