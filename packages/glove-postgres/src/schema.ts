import { holdConnection } from "./held-connection.js";
import type { Pool, PoolClient } from "pg";
import { PostgresStoreError } from "./errors.js";
import { ConfigurationError, schemaVersionPolicy } from "glove-core";
import { MIGRATIONS } from "./migrations.js";

export { SCHEMA_VERSION } from "./migrations.js";

/** One migration per pool and schema, shared by every store on them. */
const migrationRuns = new WeakMap<Pool, Map<string, Promise<void>>>();

/** Runs `migrate` for `schema` once per pool (again after a failure); later callers share that run. */
export function migrateOnce(pool: Pool, schema: string, sessionId: string): Promise<void> {
  let perPool = migrationRuns.get(pool);
  if (!perPool) migrationRuns.set(pool, (perPool = new Map()));
  let migration = perPool.get(schema);
  if (!migration) {
    migration = (async () => {
      const client = await pool.connect();
      const held = holdConnection(client);
      try {
        await migrate(client, schema, sessionId);
      } finally {
        held.release();
      }
    })();
    perPool.set(schema, migration);
    migration.catch(() => perPool.delete(schema));
  }
  return migration;
}

/**
 * `name` quoted as an identifier, after checking it is a plain one (identifiers cannot be bind
 * parameters); `who` names the refuser in the error, e.g. `PostgresStore session "chat-1"`.
 */
export function quoteSchema(name: string, who = "PostgresStore"): string {
  if (!/^[A-Za-z_][A-Za-z0-9_]{0,62}$/.test(name)) {
    throw new ConfigurationError(
      `${who}: schema ${JSON.stringify(name)} is not a plain identifier. Pass a schema name of letters, digits and _ ` +
        `(not starting with a digit, at most 63), e.g. "glove". Nothing was changed.`,
    );
  }
  return `"${name}"`;
}

/**
 * Brings `schema` to `SCHEMA_VERSION` under a transaction-scoped advisory lock, so processes
 * starting together migrate once. A newer or unreadable version is refused with an error naming
 * the session; nothing is changed or deleted.
 */
export async function migrate(client: PoolClient, schema: string, sessionId: string): Promise<void> {
  const s = quoteSchema(schema);
  const policy = schemaVersionPolicy({
    migrations: MIGRATIONS,
    packageName: "glove-postgres",
    where: `schema ${schema}`,
    error: (detail, code) => new PostgresStoreError(sessionId, detail, code),
  });
  await client.query("BEGIN");
  try {
    await client.query("SELECT pg_advisory_xact_lock(hashtext($1))", [`glove-schema:${schema}`]);
    await client.query(`CREATE SCHEMA IF NOT EXISTS ${s}`);
    const exists = await client.query<{ t: string | null }>("SELECT to_regclass($1)::text AS t", [
      `${s}.glove_schema_version`,
    ]);
    let current = 0;
    if (exists.rows[0]?.t) {
      current = policy.recorded(
        (await client.query<{ version: unknown }>(`SELECT version FROM ${s}.glove_schema_version`)).rows,
      );
    } else {
      const stray = await client.query<{ table_name: string }>(
        "SELECT table_name FROM information_schema.tables WHERE table_schema = $1 AND table_name LIKE 'glove\\_%' ORDER BY table_name",
        [schema],
      );
      policy.refuseUnversioned(stray.rows.map((r) => r.table_name));
      await client.query(`CREATE TABLE ${s}.glove_schema_version (version INTEGER NOT NULL)`);
      await client.query(`INSERT INTO ${s}.glove_schema_version (version) VALUES ($1)`, [0]);
    }
    for (const migration of policy.pending(current)) {
      for (const statement of migration.statements(s)) await client.query(statement);
      await client.query(`UPDATE ${s}.glove_schema_version SET version = $1`, [migration.version]);
    }
    await client.query("COMMIT");
  } catch (error) {
    await client.query("ROLLBACK").catch(() => {});
    throw error;
  }
}
