import type { Pool } from "pg";
import { ConfigurationError } from "glove-core";
import { PostgresStore, pg } from "./drivers.js";
import type { ServerStorage } from "../types.js";
import { purgeStatements } from "../purge-sql.js";
import type { TraceLimits } from "../inspect/trace-limits.js";
import { inTransaction } from "./pool-helpers.js";
import { PostgresCatalog } from "./postgres-catalog.js";
import { PostgresInspector } from "./postgres-inspector.js";
import { PostgresTurnFence } from "./turn-fence.js";
import { postgresInboxFingerprints } from "./inbox-fingerprints.js";
import { postgresRetentionDatabase } from "./postgres-retention-database.js";

export { PostgresCatalog } from "./postgres-catalog.js";
export { PostgresInspector } from "./postgres-inspector.js";
export { TurnFencedError } from "../turn-fenced-error.js";

/** Options of `postgresStorage`: a pool or connection string, and the schema for Glove's tables. */
export interface PostgresStorageOptions {
  /** A pool to share (not ended by the server). Give this or `connectionString`. */
  pool?: Pool;
  /** e.g. "postgres://user@127.0.0.1:5432/app": the server opens and ends its own pool. */
  connectionString?: string;
  /** The schema for Glove's tables. Default "glove". */
  schema?: string;
  /** How much turn timing to keep (see TraceLimits). */
  traces?: Partial<TraceLimits>;
}

/**
 * Conversations in PostgreSQL (glove-postgres for messages, tasks, permissions and inbox, plus the
 * catalog table): several server processes can share one database.
 */
export function postgresStorage(options: PostgresStorageOptions): ServerStorage {
  const schema = options.schema ?? "glove";
  let pool = options.pool;
  const owned = !pool;
  if (!pool) {
    if (typeof options.connectionString !== "string" || !/^postgres(ql)?:\/\//.test(options.connectionString)) {
      throw new ConfigurationError(
        `postgresStorage needs a pool or a connectionString starting with postgres:// (got ${JSON.stringify(options.connectionString)}).`,
      );
    }
    pool = new pg.Pool({ connectionString: options.connectionString });
    // A connection dropped while idle (PostgreSQL restarting) is reported here; without a listener
    // it would crash the process. The pool opens new connections on the next query.
    pool.on("error", () => undefined);
  }
  const shared = pool;
  const inspect = new PostgresInspector(shared, schema, options.traces);
  const catalog = new PostgresCatalog(shared, schema);
  return {
    catalog,
    inspect,
    store: (conversationId) => PostgresStore.open({ pool: shared, schema, sessionId: conversationId }),
    turnFence: new PostgresTurnFence(shared, schema, catalog),
    inboxFingerprints: postgresInboxFingerprints(shared, schema),
    retention: postgresRetentionDatabase(shared, schema),
    delete: async (conversationId) => {
      await inspect.traces.delete(conversationId);
      const { rows } = await shared.query(
        "SELECT 1 FROM pg_tables WHERE schemaname = $1 AND tablename = 'glove_sessions'",
        [schema],
      );
      if (rows.length === 0) return;
      // Migrates (before holding a connection, so a one-connection pool cannot deadlock): every purged table exists.
      await PostgresStore.open({ pool: shared, schema, sessionId: conversationId });
      await inTransaction(shared, async (client) => {
        for (const sql of purgeStatements(`${schema}.`, "$1::text")) await client.query(sql, [conversationId]);
      });
    },
    close: async () => {
      if (owned) await shared.end();
    },
  };
}
