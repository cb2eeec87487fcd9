import type { SqliteDatabase } from "./driver/types.js";
import { schemaVersionPolicy } from "glove-core";
import { SqliteStoreError } from "./errors.js";
import { MIGRATIONS } from "./migrations.js";
import { runInTransaction } from "./driver/transaction.js";

export { SCHEMA_VERSION } from "./migrations.js";

/**
 * Brings the database to `SCHEMA_VERSION`. A newer or unreadable version is refused with an error
 * naming the session; nothing is changed or deleted. Safe when several processes open at once:
 * the check and the steps run in one IMMEDIATE (write-locked) transaction.
 */
export function migrate(db: SqliteDatabase, sessionId: string, where: string): void {
  const policy = schemaVersionPolicy({
    migrations: MIGRATIONS,
    packageName: "glove-sqlite",
    where,
    error: (detail, code) => new SqliteStoreError(sessionId, detail, code),
  });
  runInTransaction(db, () => {
    const hasVersionTable = db
      .prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?")
      .get("glove_schema_version");
    let current = 0;
    if (hasVersionTable) {
      current = policy.recorded(
        db.prepare("SELECT version FROM glove_schema_version").all() as Array<{ version: unknown }>,
      );
    } else {
      const stray = db
        .prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE 'glove\\_%' ESCAPE '\\'")
        .all() as Array<{ name: string }>;
      policy.refuseUnversioned(stray.map((t) => t.name));
      db.prepare("CREATE TABLE glove_schema_version (version INTEGER NOT NULL)").run();
      db.prepare("INSERT INTO glove_schema_version (version) VALUES (?)").run(0);
    }
    for (const migration of policy.pending(current)) {
      for (const statement of migration.statements) db.prepare(statement).run();
      db.prepare("UPDATE glove_schema_version SET version = ?").run(migration.version);
    }
  });
}
