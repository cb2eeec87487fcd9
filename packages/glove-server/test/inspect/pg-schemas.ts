import { afterAll } from "vitest";
import pg from "pg";

export const PG_URL = process.env.GLOVE_PG_URL ?? "postgres://postgres@127.0.0.1:5432/test";

/** A pool on the test database and fresh schema names, dropped (and the pool ended) after the file. */
export function postgresSchemas(prefix: string): { pool: pg.Pool; schema(): string } {
  const pool = new pg.Pool({ connectionString: PG_URL, max: 6 });
  const schemas: string[] = [];
  afterAll(async () => {
    for (const schema of schemas) await pool.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
    await pool.end();
  });
  return {
    pool,
    schema: () => {
      const schema = `${prefix}_${process.pid}_${schemas.length}_${Math.random().toString(36).slice(2, 7)}`;
      schemas.push(schema);
      return schema;
    },
  };
}
