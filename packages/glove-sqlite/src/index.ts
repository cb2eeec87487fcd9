export { SqliteStore } from "./sqlite-store.js";
export type { SqliteStoreOptions } from "./sqlite-store.js";
export { SqliteStoreError } from "./errors.js";
export { readMessagePage } from "./message-page.js";
export type { SqliteMessagePageOptions } from "./message-page.js";
export { SCHEMA_VERSION } from "./schema.js";
export { INTERRUPTED_TOOL_MESSAGE } from "glove-core";
export { GroupCommit, sessionWritesKey } from "./group-commit.js";
