import type { Pool, PoolClient } from "pg";

/** Runs `work` in one transaction on one connection: committed when it resolves, rolled back when it throws. */
export async function inTransaction<T>(pool: Pool, work: (client: PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query("BEGIN");
    const result = await work(client);
    await client.query("COMMIT");
    return result;
  } catch (error) {
    await client.query("ROLLBACK").catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}

/**
 * Runs glove-server's DDL for `schema` under the advisory lock its tables share, so servers
 * starting together create them once (each statement is IF NOT EXISTS).
 */
export async function createUnderLock(pool: Pool, schema: string, statements: readonly string[]): Promise<void> {
  const client = await pool.connect();
  try {
    await client.query("SELECT pg_advisory_lock(hashtext('glove_server_catalog'))");
    await client.query(`CREATE SCHEMA IF NOT EXISTS ${schema}`);
    for (const sql of statements) await client.query(sql);
  } finally {
    await client.query("SELECT pg_advisory_unlock(hashtext('glove_server_catalog'))").catch(() => undefined);
    client.release();
  }
}
