import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { postgresStorage } from "glove-server/postgres";
import { sqliteStorage, type ServerStorage } from "../../../src/index.js";

const PG_URL = process.env.GLOVE_PG_URL ?? "postgres://postgres@127.0.0.1:5432/test";
let pool: pg.Pool | undefined;
const schemas: string[] = [];

/** A fresh place of each kind (a new SQLite file, a new PostgreSQL schema): each call opens a storage on it. */
export const PLACES: Array<[string, () => () => ServerStorage]> = [
  [
    "SQLite",
    () => {
      const path = join(mkdtempSync(join(tmpdir(), "glove-retention-")), "glove.db");
      return () => sqliteStorage({ path });
    },
  ],
  [
    "PostgreSQL",
    () => {
      pool ??= new pg.Pool({ connectionString: PG_URL, max: 8 });
      const shared = pool;
      const schema = `glove_retention_${process.pid}_${schemas.length}_${Math.random().toString(36).slice(2, 7)}`;
      schemas.push(schema);
      return () => postgresStorage({ pool: shared, schema });
    },
  ],
];

/** A fresh storage of each kind. */
export const STORAGES: Array<[string, () => ServerStorage]> = PLACES.map(([label, place]) => [label, () => place()()]);

/** Drops the schemas the tests made and ends the pool (afterAll). */
export async function dropTestSchemas(): Promise<void> {
  if (!pool) return;
  for (const schema of schemas.splice(0)) await pool.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
  await pool.end();
  pool = undefined;
}
