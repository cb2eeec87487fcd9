import { afterAll } from "vitest";
import pg from "pg";
import { postgresStorage } from "glove-server/postgres";
import { describeServerSuite } from "../suite/server-suite.js";
import { scaleMode } from "./support/in-process.js";
import { dropRedisPrefix, PG_URL, uniqueName } from "./support/scale-env.js";

// The single-process suite, unchanged, on one instance of the scale mode: same routes, same events.
const pool = new pg.Pool({ connectionString: PG_URL, max: 20 });
const schemas: string[] = [];
const prefixes: string[] = [];
afterAll(async () => {
  for (const schema of schemas) await pool.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
  await pool.end();
  for (const prefix of prefixes) await dropRedisPrefix(prefix);
});

describeServerSuite(
  `PostgreSQL + Redis (scale mode, ${process.env.GLOVE_SCALE_ENGINE ?? "bullmq"} engine, one instance)`,
  () => {
    const schema = uniqueName("suite");
    schemas.push(schema);
    return postgresStorage({ pool, schema });
  },
  () => {
    const prefix = uniqueName("suite");
    prefixes.push(prefix);
    return { scale: scaleMode(prefix, 2000) };
  },
  true,
);
