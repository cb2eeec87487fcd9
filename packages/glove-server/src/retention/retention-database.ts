/** A statement and its parameters, in the placeholders of the database it runs on. */
export interface SqlStatement {
  sql: string;
  params: unknown[];
}

/** A table of Glove's and its column names, as the database's own catalog lists them. */
export interface TableColumns {
  name: string;
  columns: string[];
}

/**
 * What retention and the owner purge need of a SQL storage: its catalog of tables, reads, and
 * guarded transactions. sqliteStorage and postgresStorage provide one; retention never names a
 * table of glove-sqlite or glove-postgres except through what `tables` reports.
 */
export interface RetentionDatabase {
  readonly dialect: "sqlite" | "postgres";
  /** "" (SQLite) or "<schema>." (PostgreSQL): what goes before a table name. */
  readonly prefix: string;
  /** The placeholder of the n-th parameter, from 1. */
  param(n: number): string;
  /** ` COLLATE "C"` on PostgreSQL (ISO times compare bytewise), "" on SQLite. */
  readonly collate: string;
  /** Every table whose name starts with `glove_` or `gloveserver_`, with its columns. */
  tables(): Promise<TableColumns[]>;
  all(statement: SqlStatement): Promise<Array<Record<string, unknown>>>;
  /**
   * Runs the statements in one transaction and returns the rows they changed. When `guarded`, the
   * first statement is a guard: if it changes no row, nothing is changed and the result is null.
   */
  transaction(statements: SqlStatement[], guarded: boolean): Promise<number | null>;
  /**
   * Runs `work` while holding the retention lock (one instance at a time on a shared database), or
   * returns undefined at once when another instance holds it.
   */
  exclusive<T>(work: () => Promise<T>): Promise<T | undefined>;
}
