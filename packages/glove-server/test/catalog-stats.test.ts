import { afterAll, describe, expect, it } from "vitest";
import BetterSqlite3 from "better-sqlite3";
import pg from "pg";
import { SqliteCatalog, type ConversationCatalog } from "glove-server";
import { PostgresCatalog } from "glove-server/postgres";
import { PG_URL, uniqueName } from "./scale/support/scale-env.js";
import { catalogRecord } from "./support/catalog-record.js";

// Catalog tables created before conversations had stats gain the columns when a server opens them.
const OLD_TABLE = `(id TEXT PRIMARY KEY, owner TEXT NOT NULL, agent TEXT NOT NULL, title TEXT,
  created_at TEXT NOT NULL, updated_at TEXT NOT NULL, event_ids_reserved BIGINT NOT NULL DEFAULT 0,
  running_turn_id TEXT, last_client_message_id TEXT, last_turn_id TEXT)`;
const OLD_ROW = "('old', 'ada', 'assistant', 'Before stats', '2024-01-01', '2024-01-01', 0, NULL, NULL, NULL)";

const record = catalogRecord("new");

async function expectStatsKept(catalog: ConversationCatalog): Promise<void> {
  expect((await catalog.get("old"))?.stats).toEqual({ turns: 0, tokens_in: 0, tokens_out: 0 });
  await catalog.update("old", { stats: { turns: 3, tokens_in: 42, tokens_out: 12 } });
  expect(await catalog.get("old")).toMatchObject({
    title: "Before stats",
    stats: { turns: 3, tokens_in: 42, tokens_out: 12 },
  });
  await catalog.create(record);
  expect((await catalog.get("new"))?.stats).toEqual({ turns: 0, tokens_in: 0, tokens_out: 0 });
  await catalog.update("new", { title: "Renamed" });
  expect((await catalog.listByOwner("ada", 10)).map((r) => [r.id, r.stats?.turns])).toEqual(
    expect.arrayContaining([
      ["old", 3],
      ["new", 0],
    ]),
  );
}

describe("catalog stats columns on an older table", () => {
  it("SQLite", async () => {
    const db = new BetterSqlite3(":memory:");
    db.exec(`CREATE TABLE gloveserver_conversations ${OLD_TABLE}`);
    db.exec(`INSERT INTO gloveserver_conversations VALUES ${OLD_ROW}`);
    await expectStatsKept(new SqliteCatalog(db));
    // Opening it again finds the columns there.
    expect((await new SqliteCatalog(db).get("old"))?.stats?.turns).toBe(3);
    db.close();
  });

  const pool = new pg.Pool({ connectionString: PG_URL, max: 2 });
  const schema = uniqueName("catstats");
  afterAll(async () => {
    await pool.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
    await pool.end();
  });

  it("PostgreSQL", async () => {
    await pool.query(`CREATE SCHEMA ${schema}`);
    await pool.query(`CREATE TABLE ${schema}.gloveserver_conversations ${OLD_TABLE}`);
    await pool.query(`INSERT INTO ${schema}.gloveserver_conversations VALUES ${OLD_ROW}`);
    await expectStatsKept(new PostgresCatalog(pool, schema));
    expect((await new PostgresCatalog(pool, schema).get("old"))?.stats?.turns).toBe(3);
  });
});
