import { join } from "node:path";
import BetterSqlite3 from "better-sqlite3";
import { sqliteStorage, type ServerStorage } from "glove-server";
import { BIG_ID, seedRecord, seedStores } from "./seed.js";

/** A sqliteStorage file with the bench's data; the catalog in one transaction through the catalog itself. */
export async function sqliteData(
  dir: string,
  conversations: number,
  messages: number,
  traces: number,
): Promise<{ storage: ServerStorage; close(): Promise<void> }> {
  const database = new BetterSqlite3(join(dir, `studio-data-${conversations}.db`));
  database.pragma("journal_mode = WAL");
  const storage = sqliteStorage({ database });
  database.exec("BEGIN");
  // create() runs its statement before it returns: the loop stays inside the transaction.
  for (let i = 0; i < conversations; i++) void storage.catalog.create(seedRecord(i));
  void storage.catalog.create({ ...seedRecord(conversations), id: BIG_ID, title: "The long conversation" });
  database.exec("COMMIT");
  await seedStores(storage, conversations, messages, traces);
  database.exec("PRAGMA optimize");
  return { storage, close: async () => void database.close() };
}
