import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, it } from "vitest";
import pg from "pg";
import { memoryStorage, sqliteStorage } from "glove-server";
import { postgresStorage } from "glove-server/postgres";
import { checkListingProperty } from "./inspector-property.js";
import { SLOW_WORK_MS } from "../../../../test-support/timeouts.js";

const PG_URL = process.env.GLOVE_PG_URL ?? "postgres://postgres@127.0.0.1:5432/test";
const pool = new pg.Pool({ connectionString: PG_URL, max: 4 });
const schemas: string[] = [];
afterAll(async () => {
  for (const schema of schemas) await pool.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
  await pool.end();
});

describe("the conversation listing matches a plain in-memory filter, page after page", () => {
  it("in memory", () => checkListingProperty(async () => memoryStorage(), 60), SLOW_WORK_MS);
  it("on SQLite", () => checkListingProperty(async () => sqliteStorage({ path: join(mkdtempSync(join(tmpdir(), "glove-inspect-prop-")), "glove.db") }), 40), SLOW_WORK_MS);
  it(
    "on PostgreSQL",
    () =>
      checkListingProperty(async () => {
        const schema = `glove_inspect_prop_${process.pid}_${schemas.length}`;
        schemas.push(schema);
        return postgresStorage({ pool, schema });
      }, 20),
    SLOW_WORK_MS,
  );
});
