export { PostgresStore } from "./postgres-store.js";
export type { PostgresStoreOptions } from "./postgres-store.js";
export { PostgresStoreError } from "./errors.js";
export { SCHEMA_VERSION } from "./schema.js";
export { INTERRUPTED_TOOL_MESSAGE } from "glove-core";
