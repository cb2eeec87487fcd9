/**
 * The part of a SQLite connection glove-sqlite uses: the shape of better-sqlite3's `Database`, so
 * a better-sqlite3 handle is one as it is, and node:sqlite's `DatabaseSync` is adapted to it
 * (node-sqlite.ts). Integers read back as numbers, rows as plain objects, named parameters bind
 * from an object without their `@` prefix.
 */
export interface SqliteDatabase {
  /** The file the connection opened (":memory:" for an in-memory database). */
  readonly name: string;
  readonly open: boolean;
  /** True inside a transaction (SQLite may end one by itself, e.g. on a full disk). */
  readonly inTransaction: boolean;
  prepare(sql: string): SqliteStatement;
  /** Runs one or more statements that return nothing (DDL, PRAGMA settings). */
  exec(sql: string): unknown;
  /** Runs `PRAGMA <source>`: its rows, or with `simple` the first column of the first row. */
  pragma(source: string, options?: { simple?: boolean }): unknown;
  close(): unknown;
}

/** A prepared statement; each call runs it to completion (or, for `iterate`, until the iterator ends). */
export interface SqliteStatement {
  run(...params: unknown[]): SqliteRunResult;
  get(...params: unknown[]): unknown;
  all(...params: unknown[]): unknown[];
  iterate(...params: unknown[]): IterableIterator<unknown>;
}

export interface SqliteRunResult {
  changes: number;
  lastInsertRowid: number | bigint;
}

/** The two SQLite drivers glove-sqlite runs on. */
export type SqliteDriverName = "node:sqlite" | "better-sqlite3";

/**
 * Which driver opens a file: "auto" (default) takes node:sqlite where the running Node.js has it
 * (22.13 and newer, 23.4 and newer) and better-sqlite3 otherwise.
 */
export type SqliteDriverChoice = "auto" | SqliteDriverName;

/**
 * node:sqlite's `DatabaseSync` as far as glove-sqlite uses it (declared here: the Node 20 types do
 * not have the module). Pass one as `database` and it is adapted.
 */
export interface NodeSqliteDatabaseSync {
  prepare(sql: string): NodeSqliteStatementSync;
  exec(sql: string): void;
  close(): void;
  location?(dbName?: string): string | null;
  readonly isOpen?: boolean;
  readonly isTransaction?: boolean;
}

/** node:sqlite's `StatementSync`, the methods glove-sqlite calls (the setters appeared over 22.x). */
export interface NodeSqliteStatementSync {
  run(...params: unknown[]): { changes: number | bigint; lastInsertRowid: number | bigint };
  get(...params: unknown[]): unknown;
  all(...params: unknown[]): unknown[];
  iterate?(...params: unknown[]): IterableIterator<unknown>;
  setReadBigInts?(enabled: boolean): void;
  setAllowBareNamedParameters?(enabled: boolean): void;
  setAllowUnknownNamedParameters?(enabled: boolean): void;
}
