import type {
  NodeSqliteDatabaseSync,
  NodeSqliteStatementSync,
  SqliteDatabase,
  SqliteRunResult,
  SqliteStatement,
} from "./types.js";

const adapted = new WeakMap<NodeSqliteDatabaseSync, NodeSqliteDatabase>();

/** A node:sqlite `DatabaseSync` as a `SqliteDatabase`: one adapter per handle, so every store on it shares one. */
export function adaptNodeSqlite(db: NodeSqliteDatabaseSync, name?: string): NodeSqliteDatabase {
  let adapter = adapted.get(db);
  if (!adapter) adapted.set(db, (adapter = new NodeSqliteDatabase(db, name ?? db.location?.() ?? ":memory:")));
  return adapter;
}

/** True for a node:sqlite handle (not yet adapted): it has `location()` and no `inTransaction`. */
export function isNodeSqliteDatabase(db: unknown): db is NodeSqliteDatabaseSync {
  return (
    typeof db === "object" &&
    db !== null &&
    !("inTransaction" in db) &&
    typeof (db as { prepare?: unknown }).prepare === "function" &&
    typeof (db as { location?: unknown }).location === "function"
  );
}

/**
 * node:sqlite behind better-sqlite3's shape. What differs, and how it is made the same:
 * - integers: node:sqlite throws on one past 2^53 (ERR_OUT_OF_RANGE) where better-sqlite3 reads a
 *   rounded number, which glove-sqlite's row checks then refuse with a typed error; so statements
 *   read BigInts and hand back numbers (`changes` too);
 * - rows have a null prototype: they are copied into plain objects;
 * - named parameters: bound without their prefix, and an object may carry keys the statement does
 *   not use (the server binds whole records), as with better-sqlite3;
 * - `inTransaction`: `isTransaction` where the Node.js has it (22.16+), else a probe (BEGIN fails
 *   inside a transaction).
 */
export class NodeSqliteDatabase implements SqliteDatabase {
  readonly name: string;
  readonly #db: NodeSqliteDatabaseSync;
  #open = true;
  #probe: { begin: NodeSqliteStatementSync; rollback: NodeSqliteStatementSync } | undefined;

  constructor(db: NodeSqliteDatabaseSync, name: string) {
    this.#db = db;
    this.name = name;
  }

  get open(): boolean {
    return this.#db.isOpen ?? this.#open;
  }

  get inTransaction(): boolean {
    const native = this.#db.isTransaction;
    return typeof native === "boolean" ? native : this.probeTransaction();
  }

  /** @internal Whether a transaction is open, found by trying to begin one (Node.js before 22.16). */
  probeTransaction(): boolean {
    const probe = (this.#probe ??= { begin: this.#db.prepare("BEGIN"), rollback: this.#db.prepare("ROLLBACK") });
    try {
      probe.begin.run();
    } catch {
      return true;
    }
    probe.rollback.run();
    return false;
  }

  prepare(sql: string): SqliteStatement {
    return new NodeSqliteStatement(this.#db.prepare(sql));
  }

  exec(sql: string): this {
    this.#db.exec(sql);
    return this;
  }

  pragma(source: string, options: { simple?: boolean } = {}): unknown {
    const rows = this.prepare(`PRAGMA ${source}`).all() as Array<Record<string, unknown>>;
    return options.simple ? (rows[0] === undefined ? undefined : Object.values(rows[0])[0]) : rows;
  }

  close(): this {
    this.#db.close();
    this.#open = false;
    return this;
  }
}

class NodeSqliteStatement implements SqliteStatement {
  readonly #statement: NodeSqliteStatementSync;

  constructor(statement: NodeSqliteStatementSync) {
    statement.setReadBigInts?.(true);
    statement.setAllowBareNamedParameters?.(true);
    statement.setAllowUnknownNamedParameters?.(true);
    this.#statement = statement;
  }

  run(...params: unknown[]): SqliteRunResult {
    const { changes, lastInsertRowid } = this.#statement.run(...params);
    return { changes: Number(changes), lastInsertRowid: numberIfSafe(lastInsertRowid) };
  }

  get(...params: unknown[]): unknown {
    const row = this.#statement.get(...params);
    return row === undefined ? undefined : plainRow(row);
  }

  all(...params: unknown[]): unknown[] {
    return this.#statement.all(...params).map(plainRow);
  }

  *iterate(...params: unknown[]): IterableIterator<unknown> {
    const rows = this.#statement.iterate ? this.#statement.iterate(...params) : this.#statement.all(...params);
    for (const row of rows) yield plainRow(row);
  }
}

/** A row as better-sqlite3 reads it: a plain object, integers as numbers (rounded past 2^53). */
function plainRow(row: unknown): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key in row as Record<string, unknown>) {
    const value = (row as Record<string, unknown>)[key];
    out[key] = typeof value === "bigint" ? Number(value) : value;
  }
  return out;
}

function numberIfSafe(value: number | bigint): number | bigint {
  if (typeof value === "number") return value;
  return value <= BigInt(Number.MAX_SAFE_INTEGER) && value >= BigInt(Number.MIN_SAFE_INTEGER) ? Number(value) : value;
}
