export type { GloveServerRetention } from "./retention-options.js";
export type { RetentionReport } from "./retention-pass.js";
export type { OwnerPurgeReport } from "./owner-purge.js";
export type { RetentionDatabase, SqlStatement, TableColumns } from "./retention-database.js";
export { RetentionError } from "./retention-error.js";
export { EXEMPT_TABLES } from "./table-coverage.js";
