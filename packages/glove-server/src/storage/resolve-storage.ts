import { join } from "node:path";
import { ConfigurationError } from "glove-core";
import type { GloveServerOptions } from "../options.js";
import { sqliteStorage } from "./sqlite-storage.js";
import type { ServerStorage } from "./types.js";

/** The storage `createGloveServer` options describe (the embedded SQLite file by default). */
export function resolveStorage(options: GloveServerOptions): ServerStorage {
  const { store, catalog } = options;
  const dataFile = join(options.dataDir ?? ".glove", "glove.db");
  if (store === undefined) return sqliteStorage({ path: dataFile });
  if (typeof store === "function") {
    if (catalog) return { catalog, store };
    // The conversation list still needs a home that survives restarts.
    const embedded = sqliteStorage({ path: dataFile });
    return { catalog: embedded.catalog, store, close: embedded.close };
  }
  if (typeof store === "object" && store !== null && typeof store.store === "function" && store.catalog) {
    return catalog ? { ...store, catalog } : store;
  }
  throw new ConfigurationError(
    "createGloveServer: store must be a ServerStorage (sqliteStorage(), memoryStorage(), postgresStorage()) or (conversationId) => StoreAdapter.",
  );
}
