import { resolve } from "node:path";
import { ConfigurationError } from "glove-core";
import { openSqliteDatabase, SqliteDriverError, type SqliteDatabase, type SqliteDriverChoice } from "glove-sqlite";
import { SqliteInspector } from "./sqlite-inspector.js";
import type { StorageInspector } from "./types.js";

/** Where a glove-server app keeps its data: its SQLite file, or its PostgreSQL database (and schema). */
export type InspectorSource =
  | { sqlite: string; /** Which SQLite driver opens the file (default "auto"). */ driver?: SqliteDriverChoice }
  | { postgres: string; schema?: string };

/** A StorageInspector over data another process writes; `close` releases the file or the pool. */
export interface OpenedInspector extends StorageInspector {
  close(): Promise<void>;
}

/**
 * Opens read-only inspection over a glove-server app's data, for standalone tools (Glove Studio):
 * the SQLite file is opened read-only, PostgreSQL sessions run with `default_transaction_read_only`.
 * The server may keep running and writing meanwhile. Saving traces through it is refused.
 */
export async function openInspector(source: InspectorSource): Promise<OpenedInspector> {
  if (typeof source === "object" && source !== null && "sqlite" in source && typeof source.sqlite === "string")
    return openSqlite(source.sqlite, source.driver);
  if (typeof source === "object" && source !== null && "postgres" in source && typeof source.postgres === "string") {
    if (!/^postgres(ql)?:\/\//.test(source.postgres))
      throw new ConfigurationError(
        `openInspector: postgres must be a URL starting with postgres://; got ${JSON.stringify(source.postgres.slice(0, 80))}.`,
      );
    return openPostgres(source.postgres, source.schema ?? "glove");
  }
  throw new ConfigurationError('openInspector: pass { sqlite: "path/to/glove.db" } or { postgres: "postgres://…" }.');
}

function openSqlite(file: string, driver: SqliteDriverChoice = "auto"): OpenedInspector {
  const path = resolve(file);
  let db: SqliteDatabase;
  try {
    db = openSqliteDatabase(path, { readonly: true, driver });
    db.exec("PRAGMA busy_timeout = 5000");
  } catch (error) {
    if (SqliteDriverError.isInstance(error)) throw error;
    throw new ConfigurationError(
      `openInspector: cannot open the SQLite file ${path}: ${error instanceof Error ? error.message : String(error)}.`,
      { cause: error },
    );
  }
  const inspector = new SqliteInspector(db);
  return bind(inspector, async () => void db.close());
}

async function openPostgres(url: string, schema: string): Promise<OpenedInspector> {
  // pg and glove-postgres are optional peers: loaded only now (a MissingDependencyError says what to install).
  const [{ pg }, { PostgresInspector }] = await Promise.all([
    import("../postgres/drivers.js"),
    import("../postgres/postgres-inspector.js"),
  ]);
  const pool = new pg.Pool({ connectionString: url, options: "-c default_transaction_read_only=on", max: 4 });
  pool.on("error", () => undefined); // a dropped idle connection is reopened by the next query
  const inspector = new PostgresInspector(pool, schema);
  return bind(inspector, () => pool.end());
}

function bind(inspector: StorageInspector, close: () => Promise<void>): OpenedInspector {
  return {
    listConversations: (query) => inspector.listConversations(query),
    messages: (conversationId, page) => inspector.messages(conversationId, page),
    traces: inspector.traces,
    close,
  };
}
