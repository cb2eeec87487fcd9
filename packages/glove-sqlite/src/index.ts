export { SqliteStore } from "./sqlite-store.js";
export type { SqliteStoreOptions } from "./sqlite-store.js";
export { SqliteStoreError } from "./errors.js";
export { readMessagePage } from "./message-page.js";
export type { SqliteMessagePageOptions } from "./message-page.js";
export { SCHEMA_VERSION } from "./schema.js";
export { INTERRUPTED_TOOL_MESSAGE } from "glove-core";
export { GroupCommit, sessionWritesKey } from "./group-commit.js";
export { openSqliteDatabase, asSqliteDatabase, sqliteDriverOf } from "./driver/open-database.js";
export type { OpenSqliteDatabaseOptions } from "./driver/open-database.js";
export { resolveSqliteDriver } from "./driver/load-driver.js";
export { SqliteDriverError } from "./driver/driver-error.js";
export { immediateTransaction } from "./driver/transaction.js";
export type {
  NodeSqliteDatabaseSync,
  NodeSqliteStatementSync,
  SqliteDatabase,
  SqliteDriverChoice,
  SqliteDriverName,
  SqliteRunResult,
  SqliteStatement,
} from "./driver/types.js";
