export { FsOAuthStore, MemoryOAuthStore, type McpOAuthRecord, type OAuthStore } from "./store.js";
export { buildClientMetadata, type BuildClientMetadataOptions } from "./metadata.js";
