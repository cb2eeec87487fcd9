import type { SqliteDatabase } from "./driver/types.js";

const byDatabase = new WeakMap<SqliteDatabase, Map<(db: SqliteDatabase) => unknown, unknown>>();

/**
 * The statements `prepare` makes, made once per connection and shared by every store on it. A
 * server opens one store per conversation on one shared database: preparing every statement
 * again for each (about sixty) cost CPU at every open and heap for as long as it stayed open.
 * Sharing is safe because both drivers run a statement to completion synchronously and the
 * stores never switch a statement's mode (pluck, raw) or leave an iterator open.
 */
export function statementsFor<T>(db: SqliteDatabase, prepare: (db: SqliteDatabase) => T): T {
  let statements = byDatabase.get(db);
  if (!statements) byDatabase.set(db, (statements = new Map()));
  let prepared = statements.get(prepare) as T | undefined;
  if (prepared === undefined) {
    prepared = prepare(db);
    statements.set(prepare, prepared);
  }
  return prepared;
}
