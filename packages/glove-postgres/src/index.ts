export { PostgresStore } from "./postgres-store.js";
export type { PostgresStoreOptions } from "./postgres-store.js";
export { PostgresStoreError } from "./errors.js";
export { readMessagePage } from "./message-page.js";
export type { PostgresMessagePageOptions } from "./message-page.js";
export { SCHEMA_VERSION } from "./schema.js";
export { INTERRUPTED_TOOL_MESSAGE } from "glove-core";
export type { WriterFence } from "./writer-fence.js";
