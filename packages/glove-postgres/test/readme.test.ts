import { fileURLToPath } from "node:url";
import pg from "pg";
import { afterAll } from "vitest";
import { describeReadmeExamples } from "../../../test-support/readme-examples.js";
import { PG_URL, pgProblem, uniqueSchema } from "./pg-env.js";

// Runs only when PostgreSQL is reachable; postgres.test.ts reports a missing server.
const enabled = (await pgProblem()) === undefined;
// The examples name schema "glove_readme"; each run uses its own so concurrent runs never collide.
const schema = uniqueSchema("readme");

afterAll(async () => {
  if (!enabled) return;
  const pool = new pg.Pool({ connectionString: PG_URL });
  await pool.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  await pool.end();
});

describeReadmeExamples({
  title: "glove-postgres README examples",
  packageDir: fileURLToPath(new URL("..", import.meta.url)),
  atLeast: 2,
  enabled,
  rewrite: (code) => code.replaceAll('"glove_readme"', `"${schema}"`),
});
