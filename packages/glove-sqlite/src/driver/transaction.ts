import { statementsFor } from "../statement-cache.js";
import type { SqliteDatabase } from "./types.js";

/**
 * `fn` as one IMMEDIATE (write-locked) transaction, with better-sqlite3's `transaction().immediate`
 * semantics on every driver: committed when it returns, rolled back when it throws; called inside
 * an open transaction it runs in a savepoint of it instead, so a throw undoes only its own writes.
 */
export function immediateTransaction<A extends unknown[], R>(
  db: SqliteDatabase,
  fn: (...args: A) => R,
): (...args: A) => R {
  return (...args) => runInTransaction(db, () => fn(...args));
}

/** Runs `fn` now as `immediateTransaction` would (better-sqlite3's own steps, on any driver). */
export function runInTransaction<R>(db: SqliteDatabase, fn: () => R): R {
  const s = statementsFor(db, prepare);
  const [before, after, undo] = db.inTransaction ? [s.savepoint, s.release, s.undo] : [s.begin, s.commit, s.rollback];
  try {
    before.run();
    const result = fn();
    after.run();
    return result;
  } catch (error) {
    // SQLite may have rolled back by itself (a full disk, an interrupt): nothing is left to undo then.
    if (db.inTransaction) {
      undo.run();
      if (undo === s.undo) after.run();
    }
    throw error;
  }
}

function prepare(db: SqliteDatabase) {
  return {
    begin: db.prepare("BEGIN IMMEDIATE"),
    commit: db.prepare("COMMIT"),
    rollback: db.prepare("ROLLBACK"),
    savepoint: db.prepare("SAVEPOINT glove_transaction"),
    release: db.prepare("RELEASE glove_transaction"),
    undo: db.prepare("ROLLBACK TO glove_transaction"),
  };
}
