import { createRequire } from "node:module";
import { ConfigurationError } from "glove-core";
import { SqliteDriverError } from "./driver-error.js";
import type { NodeSqliteDatabaseSync, SqliteDatabase, SqliteDriverChoice, SqliteDriverName } from "./types.js";

/** node:sqlite's module, as far as opening a file goes (Node.js 26 adds the name `Database`). */
interface NodeSqliteModule {
  DatabaseSync?: new (path: string, options?: { readOnly?: boolean }) => NodeSqliteDatabaseSync;
  Database?: new (path: string, options?: { readOnly?: boolean }) => NodeSqliteDatabaseSync;
}

/** better-sqlite3's constructor, as far as opening a file goes. */
export type BetterSqlite3Constructor = new (
  path: string,
  options?: { readonly?: boolean; fileMustExist?: boolean },
) => SqliteDatabase;

const require = createRequire(import.meta.url);
let nodeSqlite: NodeSqliteModule | null | undefined;
let betterSqlite3: BetterSqlite3Constructor | null | undefined;

/** node:sqlite when this Node.js has it without a flag; undefined on Node 20 (asked once). */
export function loadNodeSqlite(): NodeSqliteModule | undefined {
  if (nodeSqlite === undefined) {
    try {
      nodeSqlite = (process.getBuiltinModule?.("node:sqlite") as NodeSqliteModule | undefined) ?? null;
    } catch {
      nodeSqlite = null; // 22.5–22.12 without --experimental-sqlite
    }
  }
  return nodeSqlite ?? undefined;
}

/** better-sqlite3 when the app installed it (an optional peer); undefined when it is not there. */
export function loadBetterSqlite3(): BetterSqlite3Constructor | undefined {
  if (betterSqlite3 === undefined) {
    try {
      betterSqlite3 = require("better-sqlite3") as BetterSqlite3Constructor;
    } catch (error) {
      const code = (error as { code?: unknown }).code;
      if (code !== "MODULE_NOT_FOUND" || !String((error as Error).message).includes("'better-sqlite3'")) throw error;
      betterSqlite3 = null;
    }
  }
  return betterSqlite3 ?? undefined;
}

/** The driver `choice` names, or for "auto" node:sqlite where there is one, else better-sqlite3. */
export function resolveSqliteDriver(choice: SqliteDriverChoice = "auto"): SqliteDriverName {
  if (choice === "node:sqlite") {
    if (!loadNodeSqlite())
      throw new SqliteDriverError(
        `glove-sqlite was asked for the node:sqlite driver, but Node.js ${process.version} does not have it (22.13 or newer has it). ` +
          `Run on Node.js 22.13 or newer, or pass driver: "better-sqlite3" (npm install better-sqlite3). Nothing was changed.`,
        "node:sqlite",
      );
    return "node:sqlite";
  }
  if (choice === "better-sqlite3") {
    if (!loadBetterSqlite3())
      throw new SqliteDriverError(
        `glove-sqlite was asked for the better-sqlite3 driver, which is not installed (an optional peer of glove-sqlite). ` +
          `Install it in your app: npm install better-sqlite3. On Node.js 22.13 or newer, driver: "auto" uses node:sqlite instead. Nothing was changed.`,
        "better-sqlite3",
      );
    return "better-sqlite3";
  }
  if (choice !== "auto")
    throw new ConfigurationError(
      `glove-sqlite: unknown SQLite driver ${JSON.stringify(choice)}; pass "auto", "node:sqlite" or "better-sqlite3". Nothing was changed.`,
    );
  if (loadNodeSqlite()) return "node:sqlite";
  if (loadBetterSqlite3()) return "better-sqlite3";
  throw new SqliteDriverError(
    `glove-sqlite needs a SQLite driver: Node.js ${process.version} has no node:sqlite (22.13 and newer have it), and better-sqlite3 is not installed. ` +
      `Install it in your app (npm install better-sqlite3), or run on Node.js 22.13 or newer. Nothing was changed.`,
    "better-sqlite3",
  );
}
