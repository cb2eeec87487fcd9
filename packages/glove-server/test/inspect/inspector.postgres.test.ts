import { afterAll, describe } from "vitest";
import pg from "pg";
import { postgresStorage } from "glove-server/postgres";
import { inspectorCases } from "./inspector-cases.js";

const PG_URL = process.env.GLOVE_PG_URL ?? "postgres://postgres@127.0.0.1:5432/test";
const pool = new pg.Pool({ connectionString: PG_URL, max: 10 });
const schemas: string[] = [];
afterAll(async () => {
  for (const schema of schemas) await pool.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
  await pool.end();
});

describe("storage inspection on PostgreSQL", () => {
  inspectorCases(async (traces) => {
    const schema = `glove_inspect_${process.pid}_${schemas.length}_${Math.random().toString(36).slice(2, 7)}`;
    schemas.push(schema);
    return postgresStorage({ pool, schema, ...(traces ? { traces } : {}) });
  });
});
