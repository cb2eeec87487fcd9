import { mkdirSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { ConfigurationError } from "glove-core";
import {
  asSqliteDatabase,
  GroupCommit,
  immediateTransaction,
  openSqliteDatabase,
  SqliteDriverError,
  SqliteStore,
  type NodeSqliteDatabaseSync,
  type SqliteDatabase,
  type SqliteDriverChoice,
  type SqliteStatement,
} from "glove-sqlite";
import { SqliteInspector } from "./inspect/sqlite-inspector.js";
import { sqliteInboxFingerprints } from "./sqlite-inbox-fingerprints.js";
import type { TraceLimits } from "./inspect/trace-limits.js";
import { purgeStatements } from "./purge-sql.js";
import { sqliteRetentionDatabase } from "../retention/sqlite-retention-database.js";
import {
  ADDED_COLUMNS,
  CATALOG_COLUMNS,
  changedColumns,
  insertedColumns,
  recordFromRow,
  STATS_COLUMNS,
} from "./record-columns.js";
import type { ConversationCatalog, ConversationChanges, ConversationRecord, ServerStorage } from "./types.js";

/** Options of `sqliteStorage`: a database file, or an open handle to share. */
export interface SqliteStorageOptions {
  /** The database file, created with its folder when missing. Default "./.glove/glove.db". */
  path?: string;
  /**
   * An open connection to use instead (not closed by the server): a better-sqlite3 `Database`, a
   * node:sqlite `DatabaseSync`, or one from glove-sqlite's `openSqliteDatabase`.
   */
  database?: SqliteDatabase | NodeSqliteDatabaseSync;
  /**
   * Which driver opens `path`: "auto" (default) takes node:sqlite where the running Node.js has it
   * (22.13+), else better-sqlite3 (an optional peer: `npm install better-sqlite3` on Node 20).
   */
  driver?: SqliteDriverChoice;
  /** How much turn timing to keep (see TraceLimits). */
  traces?: Partial<TraceLimits>;
  /**
   * Group commit (default true): the writes every conversation makes during one turn of the event
   * loop share one transaction, so many conversations at once cost a commit per turn of the loop,
   * not one per write. Each write is still all-or-nothing, and acknowledged only after its commit.
   */
  groupCommit?: boolean;
}

// Not "glove_…": glove-sqlite refuses files with glove_ tables it did not create.
const TABLE = "gloveserver_conversations";

/** The catalog in a table of the same SQLite file that holds the messages. */
export class SqliteCatalog implements ConversationCatalog {
  readonly #db: SqliteDatabase;
  readonly #s: ReturnType<typeof prepare>;
  /** UPDATE statements by their SQL: a turn's start and end each update the same columns again. */
  readonly #updates = new Map<string, SqliteStatement>();
  /** The connection's group commit, when sqliteStorage turned it on (writes queue; reads run the queue first). */
  readonly #group: GroupCommit | undefined;

  constructor(db: SqliteDatabase) {
    this.#db = db;
    this.#group = GroupCommit.of(db);
    db.exec(`CREATE TABLE IF NOT EXISTS ${TABLE} (
      id TEXT PRIMARY KEY, owner TEXT NOT NULL, agent TEXT NOT NULL, title TEXT,
      created_at TEXT NOT NULL, updated_at TEXT NOT NULL, event_ids_reserved INTEGER NOT NULL DEFAULT 0,
      running_turn_id TEXT, last_client_message_id TEXT, last_turn_id TEXT)`);
    db.exec(`CREATE INDEX IF NOT EXISTS ${TABLE}_owner ON ${TABLE} (owner, updated_at DESC)`);
    const present = new Set(
      (db.prepare(`PRAGMA table_info(${TABLE})`).all() as Array<{ name: string }>).map((c) => c.name),
    );
    for (const { column, sqlite } of ADDED_COLUMNS) {
      if (!present.has(column)) db.exec(`ALTER TABLE ${TABLE} ADD COLUMN ${column} ${sqlite}`);
    }
    // The listing's orders (storage inspection): newest first, overall and per agent.
    db.exec(`CREATE INDEX IF NOT EXISTS ${TABLE}_updated ON ${TABLE} (updated_at DESC, id DESC)`);
    db.exec(`CREATE INDEX IF NOT EXISTS ${TABLE}_agent ON ${TABLE} (agent, updated_at DESC, id DESC)`);
    this.#s = prepare(db);
  }

  async create(record: ConversationRecord): Promise<void> {
    const row = Object.fromEntries(insertedColumns(record));
    return this.#write(record.id, () => void this.#s.insert.run(row));
  }
  async get(id: string): Promise<ConversationRecord | undefined> {
    this.#group?.flushFor(catalogKey(id));
    const row = this.#s.get.get(id) as Record<string, unknown> | undefined;
    return row && recordFromRow(row);
  }
  async listByOwner(owner: string, limit: number): Promise<ConversationRecord[]> {
    this.#group?.flush();
    return (this.#s.list.all(owner, limit) as Array<Record<string, unknown>>).map(recordFromRow);
  }
  async update(id: string, changes: ConversationChanges): Promise<void> {
    const pairs = changedColumns(changes);
    if (!pairs.length) return;
    const sql = `UPDATE ${TABLE} SET ${pairs.map(([column]) => `${column} = ?`).join(", ")} WHERE id = ?`;
    let statement = this.#updates.get(sql);
    if (!statement) this.#updates.set(sql, (statement = this.#db.prepare(sql)));
    const values = pairs.map(([, value]) => value);
    return this.#write(id, () => void statement.run(...values, id));
  }
  async delete(id: string): Promise<void> {
    return this.#write(id, () => void this.#s.delete.run(id));
  }

  /** Runs a write (one statement each) now, or queues it for the group commit as touching conversation `id`'s row. */
  #write(id: string, run: () => void): Promise<void> {
    return GroupCommit.write(this.#db, run, catalogKey(id), true);
  }
}

/** The key of a catalog row's writes in the group commit (listings read every row: they run the whole queue). */
function catalogKey(id: string): string {
  return `gloveserver catalog ${id}`;
}

function prepare(db: SqliteDatabase) {
  const columns = [...Object.values(CATALOG_COLUMNS), ...Object.values(STATS_COLUMNS)];
  return {
    insert: db.prepare(
      `INSERT INTO ${TABLE} (${columns.join(", ")}) VALUES (${columns.map((c) => `@${c}`).join(", ")})`,
    ),
    get: db.prepare(`SELECT * FROM ${TABLE} WHERE id = ?`),
    list: db.prepare(`SELECT * FROM ${TABLE} WHERE owner = ? ORDER BY updated_at DESC LIMIT ?`),
    delete: db.prepare(`DELETE FROM ${TABLE} WHERE id = ?`),
  };
}

/**
 * The embedded default: one SQLite file (WAL) holds the catalog and every conversation's
 * messages, tasks, permissions and inbox (glove-sqlite), so a restart resumes everything.
 */
export function sqliteStorage(options: SqliteStorageOptions = {}): ServerStorage {
  let db = options.database && asSqliteDatabase(options.database);
  const owned = !db;
  if (!db) {
    const path = resolve(options.path ?? ".glove/glove.db");
    try {
      mkdirSync(dirname(path), { recursive: true });
      db = openSqliteDatabase(path, { driver: options.driver ?? "auto" });
    } catch (error) {
      if (SqliteDriverError.isInstance(error)) throw error;
      throw new ConfigurationError(
        `glove-server could not open its SQLite file ${path}: ${error instanceof Error ? error.message : String(error)}. ` +
          `Pass store: sqliteStorage({ path }) with a writable location.`,
        { cause: error },
      );
    }
    // synchronous = NORMAL, as glove-sqlite sets (better-sqlite3's build defaults a WAL file to it,
    // node:sqlite's does not): no fsync per commit; a process crash loses nothing, a power cut may
    // lose the last commits.
    db.exec("PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; PRAGMA busy_timeout = 5000");
  }
  const database = db;
  if (options.groupCommit ?? true) GroupCommit.enable(database);
  const group = GroupCommit.of(database);
  let purge: ((conversationId: string) => void) | undefined;
  const inspect = new SqliteInspector(database, options.traces);
  return {
    catalog: new SqliteCatalog(database),
    inspect,
    store: (conversationId) => new SqliteStore({ database, sessionId: conversationId }),
    inboxFingerprints: sqliteInboxFingerprints(database),
    retention: sqliteRetentionDatabase(database),
    delete: async (conversationId) => {
      if (!purge) {
        const exists = database
          .prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'glove_sessions'")
          .get();
        if (!exists) {
          inspect.traces.delete(conversationId);
          return;
        }
        new SqliteStore({ database, sessionId: conversationId }); // migrates: every purged table exists
        // Prepared once: the tables stay (nothing of Glove's drops them), and a prepare per delete showed.
        const statements = purgeStatements("", "?").map((sql) => database.prepare(sql));
        // The traces go in the same transaction: one commit per delete, not two.
        purge = immediateTransaction(database, (id: string) => {
          inspect.traces.delete(id);
          for (const statement of statements) statement.run(id);
        });
      }
      const run = purge;
      return GroupCommit.write(database, () => run(conversationId));
    },
    close: async () => {
      group?.flush();
      if (owned) database.close();
    },
  };
}
