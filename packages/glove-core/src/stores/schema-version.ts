import type { StoreErrorCode } from "./record-codec.js";

/** One schema step of a persistent store; `statements` are SQL, or build it (e.g. for a schema name). Never edit a shipped step. */
export interface SchemaMigration<Statements> {
  version: number;
  description: string;
  statements: Statements;
}

/** What `schemaVersionPolicy` needs: the store's migrations and how it names itself in errors. */
export interface SchemaVersionPolicyOptions<Statements> {
  /** The store's steps, in version order. */
  migrations: readonly SchemaMigration<Statements>[];
  /** The package, as named in "upgrade" advice, e.g. "glove-sqlite". */
  packageName: string;
  /** Where the tables live, as named in errors, e.g. "SQLite database ./chat.db" or "schema glove". */
  where: string;
  /** Builds the store's own error (naming its session). */
  error: (detail: string, code?: StoreErrorCode) => Error;
}

/**
 * How a persistent store treats the version recorded beside its tables (a one-row
 * glove_schema_version table): a newer, unreadable or missing-but-needed version is refused with
 * an error that says nothing was changed, and only the steps past the recorded version run.
 */
export function schemaVersionPolicy<Statements>({
  migrations,
  packageName,
  where,
  error,
}: SchemaVersionPolicyOptions<Statements>) {
  const latest = migrations.at(-1)?.version ?? 0;
  const refuse = (detail: string) => error(detail, "GLOVE_STORE_SCHEMA");

  return {
    /** The version the rows of glove_schema_version record: exactly one non-negative integer. */
    recorded(rows: ReadonlyArray<{ version: unknown }>): number {
      const version = rows[0]?.version;
      if (rows.length !== 1 || typeof version !== "number" || !Number.isInteger(version) || version < 0) {
        throw refuse(
          `the schema version table of ${where} is unreadable (${rows.length} rows, version ${JSON.stringify(version)}). ` +
            `Restore glove_schema_version to one row with the right version. Nothing was changed.`,
        );
      }
      return version;
    },

    /** Refuses Glove tables found without a version table: their version is unknown. */
    refuseUnversioned(tables: readonly string[]): void {
      if (tables.length === 0) return;
      throw refuse(
        `${where} has Glove tables (${tables.join(", ")}) but no glove_schema_version table, ` +
          `so its schema version is unknown. Give the store a database (or schema) of its own, or move these ` +
          `tables out of the way. Nothing was changed.`,
      );
    },

    /** The steps to run from `current`, after refusing a version newer than this package knows. */
    pending(current: number): SchemaMigration<Statements>[] {
      if (current > latest) {
        throw refuse(
          `${where} has schema version ${current}, newer than this ${packageName} supports (${latest}). ` +
            `It was written by a newer ${packageName}: upgrade this one. Nothing was changed.`,
        );
      }
      return migrations.filter((migration) => migration.version > current);
    },
  };
}
