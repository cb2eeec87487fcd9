/** A SQLite file with `count` conversations in the catalog, written in one transaction (seconds for 100 000). */
import { join } from "node:path";
import BetterSqlite3 from "better-sqlite3";
import { sqliteStorage, type ServerStorage } from "glove-server";

export function seededStorage(dir: string, count: number): { storage: ServerStorage; close(): void } {
  const database = new BetterSqlite3(join(dir, `catalog-${count}.db`));
  database.pragma("journal_mode = WAL");
  const storage = sqliteStorage({ database });
  const start = Date.UTC(2026, 0, 1);
  database.exec("BEGIN");
  for (let i = 0; i < count; i++) {
    const at = new Date(start + i * 1000).toISOString();
    // create() runs its statement before it returns: the loop stays inside the transaction.
    void storage.catalog.create({
      id: `00000000-0000-4000-8000-${String(i).padStart(12, "0")}`,
      owner: `user-${i % 50}`,
      agent: i % 3 === 0 ? "researcher" : "assistant",
      title: `Conversation ${i}`,
      createdAt: at,
      updatedAt: at,
      eventIdsReserved: 0,
      runningTurnId: null,
      lastClientMessageId: null,
      lastTurnId: null,
      stats: { turns: 2, tokens_in: 100 + (i % 7), tokens_out: 20 },
    });
  }
  database.exec("COMMIT");
  return { storage, close: () => database.close() };
}
