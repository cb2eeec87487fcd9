/** glove-evals on PostgreSQL: results beside the conversations of glove-server's postgresStorage. */
import type { Pool } from "pg";
import { postgresStorage } from "glove-server/postgres";
import { EvalError } from "../../errors.js";
import type { EvalStorage } from "../eval-storage.js";
import { PostgresResultsStore } from "./postgres-results.js";

export { PostgresResultsStore } from "./postgres-results.js";

export interface PostgresEvalStorageOptions {
  /** A pool to share (not ended by close()). */
  pool?: Pool;
  /** Or a connection string: a pool is opened and ended by close(). */
  connectionString?: string;
  /** The schema of glove-server's tables and glove-evals' own. Default "glove". */
  schema?: string;
}

/** Conversations (glove-server's postgresStorage) and results in one PostgreSQL schema. */
export async function postgresEvalStorage(options: PostgresEvalStorageOptions): Promise<EvalStorage> {
  let pool = options.pool;
  const owned = !pool;
  if (!pool) {
    if (typeof options.connectionString !== "string") {
      throw new EvalError(
        "GLOVE_EVAL_CONFIG",
        "postgresEvalStorage needs a pool or a connectionString (postgres://…).",
      );
    }
    const pg = await import("pg");
    pool = new (pg.default?.Pool ?? pg.Pool)({ connectionString: options.connectionString });
    pool.on("error", () => undefined);
  }
  const schema = options.schema ?? "glove";
  const server = postgresStorage({ pool, schema });
  const results = new PostgresResultsStore(pool, schema);
  await results.migrate();
  const shared = pool;
  return {
    server,
    results,
    async close() {
      await server.close?.();
      if (owned) await shared.end();
    },
  };
}
