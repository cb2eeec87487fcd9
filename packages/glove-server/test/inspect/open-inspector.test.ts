import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ConfigurationError } from "glove-core";
import { openInspector, sqliteStorage, type ServerStorage } from "glove-server";
import { postgresStorage } from "glove-server/postgres";
import { record, seedCatalog } from "./seed.js";
import { trace } from "./inspector-cases.js";
import { PG_URL, postgresSchemas } from "./pg-schemas.js";
import { testSqliteDriver } from "../../../../test-support/sqlite-driver.js";

const { pool, schema: newSchema } = postgresSchemas("glove_open_inspect");
const schema = newSchema();

/** What a glove-server app wrote: two conversations, one with messages and a trace. */
async function writeAppData(storage: ServerStorage): Promise<void> {
  await seedCatalog(storage, [record(1), record(2)]);
  await (
    await storage.store("conv-00002")
  ).appendMessages([
    { sender: "user", text: "hello" },
    { sender: "agent", text: "hi" },
  ]);
  await storage.inspect!.traces.save(trace("conv-00002", "turn-1", "2026-02-01T00:00:00.000Z"));
}

describe("openInspector: a standalone tool reads a glove-server app's data, read-only", () => {
  it("over the app's SQLite file while the app keeps it open; writes through it are refused", async () => {
    const path = join(mkdtempSync(join(tmpdir(), "glove-open-")), "glove.db");
    const app = sqliteStorage({ path, driver: testSqliteDriver });
    await writeAppData(app);
    const inspector = await openInspector({ sqlite: path, driver: testSqliteDriver });
    try {
      expect((await inspector.listConversations({ limit: 10 })).items.map((c) => c.id)).toEqual([
        "conv-00002",
        "conv-00001",
      ]);
      expect(await inspector.messages("conv-00002", { offset: 1, limit: 5 })).toEqual({
        messages: [{ sender: "agent", text: "hi" }],
        offset: 1,
        total: 2,
      });
      expect((await inspector.traces.list("conv-00002", { limit: 5 })).map((t) => t.turnId)).toEqual(["turn-1"]);
      // What the app writes later is seen.
      await app.catalog.create(record(3));
      expect((await inspector.listConversations({ limit: 10 })).total).toBe(3);
      await expect(inspector.traces.save(trace("conv-00002", "turn-2", "2026-02-01T00:01:00.000Z"))).rejects.toThrow(
        /readonly/i,
      );
    } finally {
      await inspector.close();
      await app.close?.();
    }
    // And once the app stopped (its WAL checkpointed away).
    const later = await openInspector({ sqlite: path });
    expect((await later.listConversations({ limit: 10 })).total).toBe(3);
    await later.close();
  });

  it("over the app's PostgreSQL schema, in read-only sessions", async () => {
    const app = postgresStorage({ pool, schema });
    await writeAppData(app);
    const inspector = await openInspector({ postgres: PG_URL, schema });
    try {
      expect((await inspector.listConversations({ limit: 10 })).items.map((c) => c.id)).toEqual([
        "conv-00002",
        "conv-00001",
      ]);
      expect((await inspector.messages("conv-00002", { offset: 0, limit: 5 })).total).toBe(2);
      expect((await inspector.traces.get("conv-00002", "turn-1"))?.spans).toHaveLength(1);
      await expect(inspector.traces.save(trace("conv-00002", "turn-2", "2026-02-01T00:01:00.000Z"))).rejects.toThrow(
        /read-only/,
      );
    } finally {
      await inspector.close();
    }
  });

  it("refuses a missing file, a non-postgres URL and other shapes with a ConfigurationError", async () => {
    for (const source of [
      { sqlite: join(tmpdir(), "no-such-dir-glove", "x.db") },
      { postgres: "mysql://x" },
      {},
      null,
    ]) {
      const error = await openInspector(source as never).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(ConfigurationError.isInstance(error)).toBe(true);
    }
  });
});
