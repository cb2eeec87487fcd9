import { adaptNodeSqlite, isNodeSqliteDatabase, NodeSqliteDatabase } from "./node-sqlite.js";
import { loadBetterSqlite3, loadNodeSqlite, resolveSqliteDriver } from "./load-driver.js";
import type { NodeSqliteDatabaseSync, SqliteDatabase, SqliteDriverChoice, SqliteDriverName } from "./types.js";

/** Options of `openSqliteDatabase`. */
export interface OpenSqliteDatabaseOptions {
  /** Which driver opens the file (default "auto": node:sqlite where Node.js has it, else better-sqlite3). */
  driver?: SqliteDriverChoice;
  /** Open for reading only; the file must exist. */
  readonly?: boolean;
}

/**
 * Opens a SQLite file (created when missing, unless `readonly`) or ":memory:" with the chosen
 * driver. Throws a `SqliteDriverError` when there is no driver, and the driver's own error when
 * the file cannot be opened.
 */
export function openSqliteDatabase(path: string, options: OpenSqliteDatabaseOptions = {}): SqliteDatabase {
  const driver = resolveSqliteDriver(options.driver);
  if (driver === "node:sqlite") {
    const sqlite = loadNodeSqlite()!;
    const DatabaseSync = (sqlite.DatabaseSync ?? sqlite.Database)!;
    return adaptNodeSqlite(new DatabaseSync(path, options.readonly ? { readOnly: true } : {}), path);
  }
  const BetterSqlite3 = loadBetterSqlite3()!;
  return new BetterSqlite3(path, options.readonly ? { readonly: true, fileMustExist: true } : {});
}

/** A handle a user passed (better-sqlite3's, node:sqlite's, or one already adapted) as a `SqliteDatabase`. */
export function asSqliteDatabase(database: SqliteDatabase | NodeSqliteDatabaseSync): SqliteDatabase {
  return isNodeSqliteDatabase(database) ? adaptNodeSqlite(database) : database;
}

/** The driver behind a connection: node:sqlite's adapter, else (better-sqlite3's shape) better-sqlite3. */
export function sqliteDriverOf(database: SqliteDatabase): SqliteDriverName {
  return database instanceof NodeSqliteDatabase ? "node:sqlite" : "better-sqlite3";
}
