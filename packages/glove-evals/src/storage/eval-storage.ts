import { mkdirSync } from "node:fs";
import { dirname } from "node:path";
import { openSqliteDatabase, type SqliteDriverChoice } from "glove-sqlite";
import { memoryStorage, sqliteStorage, type ServerStorage } from "glove-server";
import { MemoryResultsStore } from "./memory-results.js";
import type { EvalResultsStore } from "./records.js";
import { SqliteResultsStore } from "./sqlite-results.js";

/** Where an experiment keeps the conversations it runs (glove-server's storage) and its results. */
export interface EvalStorage {
  server: ServerStorage;
  results: EvalResultsStore;
  close(): Promise<void>;
}

export interface SqliteEvalStorageOptions {
  /** The SQLite file (created with its folder). Default ".glove/glove.db", the file glove-server and Studio use. */
  path?: string;
  driver?: SqliteDriverChoice;
}

/** Conversations and results in one SQLite file: glove-server's tables and glove-evals' own. */
export function sqliteEvalStorage(options: SqliteEvalStorageOptions = {}): EvalStorage {
  const path = options.path ?? ".glove/glove.db";
  if (path !== ":memory:") mkdirSync(dirname(path), { recursive: true });
  const db = openSqliteDatabase(path, options.driver ? { driver: options.driver } : {});
  // What glove-server sets on a file it opens itself (it leaves a shared connection as it is).
  db.exec("PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; PRAGMA busy_timeout = 5000");
  const server = sqliteStorage({ database: db });
  const results = new SqliteResultsStore(db);
  return {
    server,
    results,
    async close() {
      await server.close?.();
      db.close();
    },
  };
}

/** Everything in memory (tests, throwaway runs). */
export function memoryEvalStorage(): EvalStorage {
  const server = memoryStorage();
  return { server, results: new MemoryResultsStore(), close: async () => server.close?.() };
}
