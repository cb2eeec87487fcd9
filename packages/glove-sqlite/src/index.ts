export { SqliteStore } from "./sqlite-store.js";
export type { SqliteStoreOptions } from "./sqlite-store.js";
export { SqliteStoreError } from "./errors.js";
export { SCHEMA_VERSION } from "./schema.js";
export { INTERRUPTED_TOOL_MESSAGE } from "glove-core";
