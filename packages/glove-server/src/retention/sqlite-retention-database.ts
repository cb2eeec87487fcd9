import { GroupCommit, immediateTransaction, type SqliteDatabase } from "glove-sqlite";
import { sqliteBindings, sqliteParam } from "../storage/inspect/sqlite-params.js";
import type { RetentionDatabase, SqlStatement, TableColumns } from "./retention-database.js";

/** Thrown inside the transaction when its guard changed nothing: rolls it back. */
class GuardMissed extends Error {}

/**
 * Retention over sqliteStorage's file. Writes go through the connection's group commit (each run
 * of statements is one transaction of its own); reads commit queued writes first. No lock: SQLite
 * lets one writer at a time in, and a file is served by one process.
 */
export function sqliteRetentionDatabase(db: SqliteDatabase): RetentionDatabase {
  const flush = () => GroupCommit.of(db)?.flush();
  return {
    dialect: "sqlite",
    prefix: "",
    collate: "",
    param: sqliteParam,
    async tables(): Promise<TableColumns[]> {
      flush();
      const names = db
        .prepare(
          "SELECT name FROM sqlite_master WHERE type = 'table' AND (name LIKE 'glove\\_%' ESCAPE '\\' OR name LIKE 'gloveserver\\_%' ESCAPE '\\') ORDER BY name",
        )
        .all() as Array<{ name: string }>;
      return names.map(({ name }) => ({
        name,
        columns: (db.prepare("SELECT name FROM pragma_table_info(?)").all(name) as Array<{ name: string }>).map(
          (c) => c.name,
        ),
      }));
    },
    async all({ sql, params }: SqlStatement) {
      flush();
      return db.prepare(sql).all(sqliteBindings(params)) as Array<Record<string, unknown>>;
    },
    transaction(statements: SqlStatement[], guarded: boolean): Promise<number | null> {
      const prepared = statements.map(({ sql, params }) => ({ statement: db.prepare(sql), params }));
      return GroupCommit.write(
        db,
        () => {
          try {
            return immediateTransaction(db, () => {
              let changed = 0;
              for (const [i, { statement, params }] of prepared.entries()) {
                const { changes } = statement.run(sqliteBindings(params));
                if (guarded && i === 0 && Number(changes) === 0) throw new GuardMissed();
                changed += Number(changes);
              }
              return changed;
            })();
          } catch (error) {
            if (error instanceof GuardMissed) return null;
            throw error;
          }
        },
        undefined,
        true,
      );
    },
    exclusive: (work) => work(),
  };
}
