import type { Pool } from "pg";
import type { RetentionDatabase, SqlStatement, TableColumns } from "../../retention/retention-database.js";
import { inTransaction, withConnection } from "./pool-helpers.js";

/** Thrown inside the transaction when its guard changed nothing: rolls it back. */
class GuardMissed extends Error {}

/**
 * Retention over postgresStorage's schema. One instance at a time runs it: the run holds a
 * session advisory lock (per schema) on a connection of its own, and an instance that cannot take
 * it at once skips its run.
 */
export function postgresRetentionDatabase(pool: Pool, schema: string): RetentionDatabase {
  return {
    dialect: "postgres",
    prefix: `${schema}.`,
    collate: ` COLLATE "C"`,
    param: (n) => `$${n}`,
    async tables(): Promise<TableColumns[]> {
      const { rows } = await pool.query<{ name: string; columns: string[] }>(
        `SELECT table_name AS name, array_agg(column_name::text ORDER BY ordinal_position) AS columns
         FROM information_schema.columns
         WHERE table_schema = $1 AND (table_name LIKE 'glove\\_%' OR table_name LIKE 'gloveserver\\_%')
         GROUP BY table_name ORDER BY table_name`,
        [schema],
      );
      return rows;
    },
    async all({ sql, params }: SqlStatement) {
      return (await pool.query(sql, params)).rows as Array<Record<string, unknown>>;
    },
    async transaction(statements: SqlStatement[], guarded: boolean): Promise<number | null> {
      try {
        return await inTransaction(pool, async (client) => {
          let changed = 0;
          for (const [i, { sql, params }] of statements.entries()) {
            const { rowCount } = await client.query(sql, params);
            if (guarded && i === 0 && !rowCount) throw new GuardMissed();
            changed += rowCount ?? 0;
          }
          return changed;
        });
      } catch (error) {
        if (error instanceof GuardMissed) return null;
        throw error;
      }
    },
    async exclusive<T>(work: () => Promise<T>): Promise<T | undefined> {
      // The lock's connection is held for the run: the pool needs a second one for the work.
      const key = `glove_server_retention:${schema}`;
      return withConnection(pool, async (client, discard) => {
        const { rows } = await client.query<{ taken: boolean }>("SELECT pg_try_advisory_lock(hashtext($1)) AS taken", [
          key,
        ]);
        if (!rows[0]?.taken) return undefined;
        try {
          return await work();
        } finally {
          // A connection that cannot unlock is closed instead: its session's locks go with it.
          await client.query("SELECT pg_advisory_unlock(hashtext($1))", [key]).catch(discard);
        }
      });
    },
  };
}
