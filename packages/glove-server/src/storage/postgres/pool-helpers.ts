import type { Pool, PoolClient } from "pg";

/**
 * A pooled connection for `work`, listening for its `error` while held: a server restarting while
 * the connection waits between statements would otherwise emit an unhandled `error` that ends the
 * process. The failure reaches `work` through its next query; a lost connection (or one `work`
 * discards) is not pooled again.
 */
export async function withConnection<T>(
  pool: Pool,
  work: (client: PoolClient, discard: () => void) => Promise<T>,
): Promise<T> {
  const client = await pool.connect();
  let lost = false;
  const onError = () => (lost = true);
  client.on("error", onError);
  try {
    return await work(client, onError);
  } finally {
    client.off("error", onError);
    client.release(lost || undefined);
  }
}

/** Runs `work` in one transaction on one connection: committed when it resolves, rolled back when it throws. */
export function inTransaction<T>(pool: Pool, work: (client: PoolClient) => Promise<T>): Promise<T> {
  return withConnection(pool, async (client) => {
    try {
      await client.query("BEGIN");
      const result = await work(client);
      await client.query("COMMIT");
      return result;
    } catch (error) {
      await client.query("ROLLBACK").catch(() => undefined);
      throw error;
    }
  });
}

/**
 * Runs glove-server's DDL for `schema` under the advisory lock its tables share, so servers
 * starting together create them once (each statement is IF NOT EXISTS).
 */
export function createUnderLock(pool: Pool, schema: string, statements: readonly string[]): Promise<void> {
  return withConnection(pool, async (client) => {
    try {
      await client.query("SELECT pg_advisory_lock(hashtext('glove_server_catalog'))");
      await client.query(`CREATE SCHEMA IF NOT EXISTS ${schema}`);
      for (const sql of statements) await client.query(sql);
    } finally {
      await client.query("SELECT pg_advisory_unlock(hashtext('glove_server_catalog'))").catch(() => undefined);
    }
  });
}
