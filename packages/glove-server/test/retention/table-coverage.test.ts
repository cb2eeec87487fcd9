/**
 * Retention and the owner purge are driven by the database's own list of tables: every table of
 * Glove's a server creates is covered; a table added later with a conversation_id column is
 * purged without a change to retention; one that names no conversation refuses the run (nothing
 * deleted) until it gets such a column or a documented exemption.
 */
import { afterAll, describe, expect, it } from "vitest";
import { createGloveServer, EXEMPT_TABLES, RetentionError, type ServerStorage } from "../../src/index.js";
import { tableCoverage } from "../../src/retention/table-coverage.js";
import { SESSION_TABLES } from "../../src/storage/purge-sql.js";
import { authenticate, testAgent } from "../support/harness.js";
import { dropTestSchemas, STORAGES } from "./support/storages.js";
import { familyIds, rowsNaming } from "./support/table-rows.js";
import { buildWorld, type ConversationSpec } from "./support/world.js";

afterAll(dropTestSchemas);

const spec = (owner: string): ConversationSpec => ({
  owner,
  agent: "short",
  idleDays: 100,
  running: false,
  pendingQuestion: false,
  inMemory: false,
  settled: [{ kind: "question", days: 1 }],
  branches: 1,
  traces: [1],
  subagent: "settled",
});

function serverOn(storage: ServerStorage) {
  return createGloveServer({
    agents: { short: testAgent({ script: [], delayMs: 0, toolSignals: [] }) },
    authenticate,
    store: storage,
    retention: { inactiveConversationDays: 30 },
  });
}

describe.each(STORAGES)("tables retention covers (%s)", (_label, makeStorage) => {
  it("covers every table the storage created, by its columns", async () => {
    const storage = makeStorage();
    await buildWorld(storage, [spec("alice")]);
    await storage.turnFence?.take("00000000-0000-4000-8000-00000000ffff");
    const tables = await storage.retention!.tables();
    const coverage = tableCoverage(tables);
    const covered = new Set([...coverage.sessionTables, ...coverage.conversationTables, "gloveserver_conversations"]);
    for (const { name } of tables) expect(covered.has(name) || name in EXEMPT_TABLES, name).toBe(true);
    expect(coverage.sessionTables).toEqual(expect.arrayContaining(["glove_messages", "glove_waits", "glove_branches"]));
    expect(coverage.sessionTables.at(-1)).toBe("glove_sessions");
    expect(coverage.conversationTables).toContain("gloveserver_turn_traces");
    // A client's DELETE goes through storage.delete, which names its tables: it must name them all.
    expect([...SESSION_TABLES].sort()).toEqual([...coverage.sessionTables].sort());
    expect(coverage.conversationTables).toEqual(["gloveserver_turn_traces"]);
    await storage.close?.();
  });

  it("purges a table added later that has a conversation_id column", async () => {
    const storage = makeStorage();
    const db = storage.retention!;
    const [alice] = await buildWorld(storage, [spec("alice")]);
    const [bob] = await buildWorld(storage, [spec("bob")]);
    await db.transaction(
      [{ sql: `CREATE TABLE ${db.prefix}gloveserver_notes (conversation_id TEXT NOT NULL, note TEXT)`, params: [] }],
      false,
    );
    for (const id of [alice!.id, bob!.id])
      await db.transaction(
        [{ sql: `INSERT INTO ${db.prefix}gloveserver_notes VALUES (${db.param(1)}, 'n')`, params: [id] }],
        false,
      );
    const family = await familyIds(db, alice!.id);
    const server = serverOn(storage);
    await server.purgeOwner("alice");
    expect(await rowsNaming(db, family)).toEqual({});
    expect(await rowsNaming(db, [bob!.id])).toMatchObject({ gloveserver_notes: 1, gloveserver_conversations: 1 });
    await server.close();
  });

  it("refuses to run while a table of Glove's names no conversation, deleting nothing", async () => {
    const storage = makeStorage();
    const db = storage.retention!;
    const [alice] = await buildWorld(storage, [spec("alice")]);
    await db.transaction([{ sql: `CREATE TABLE ${db.prefix}gloveserver_widgets (widget TEXT)`, params: [] }], false);
    const before = await rowsNaming(db, await familyIds(db, alice!.id));
    const server = serverOn(storage);
    for (const attempt of [() => server.runRetention(), () => server.purgeOwner("alice")]) {
      const error = await attempt().catch((e: unknown) => e);
      expect(RetentionError.isInstance(error)).toBe(true);
      expect((error as Error).message).toMatch(/gloveserver_widgets.*session_id or conversation_id column/);
    }
    expect(await rowsNaming(db, await familyIds(db, alice!.id))).toEqual(before);
    await server.close();
  });
});
