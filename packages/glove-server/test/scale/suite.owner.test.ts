import { afterAll } from "vitest";
import pg from "pg";
import type { GloveServerOptions } from "glove-server";
import { postgresStorage } from "glove-server/postgres";
import { ownerScale } from "../../src/scale/owner/owner-scale.js";
import { describeServerSuite } from "../suite/server-suite.js";
import { dropRedisPrefix, PG_URL, REDIS_URL, uniqueName } from "./support/scale-env.js";

// The single-process suite, unchanged, on one instance of the scale mode as one engine: same routes, same events.
const pool = new pg.Pool({ connectionString: PG_URL, max: 20 });
const schemas: string[] = [];
const prefixes: string[] = [];
afterAll(async () => {
  for (const schema of schemas) await pool.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
  await pool.end();
  for (const prefix of prefixes) await dropRedisPrefix(prefix);
});

describeServerSuite(
  "PostgreSQL + Redis (scale mode as one engine, one instance)",
  () => {
    const schema = uniqueName("osuite");
    schemas.push(schema);
    return postgresStorage({ pool, schema });
  },
  () => {
    const prefix = uniqueName("osuite");
    prefixes.push(prefix);
    // Imported from the sources (not exported yet): the same type as the package's, declared twice.
    return { scale: ownerScale({ redis: REDIS_URL, prefix, leaseMs: 2000 }) as unknown as GloveServerOptions["scale"] };
  },
  true,
);
