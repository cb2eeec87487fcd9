export { FsOAuthStore, MemoryOAuthStore, type McpOAuthRecord, type OAuthStore } from "./store.js";
export { buildClientMetadata, loopbackRedirectUrl, type BuildClientMetadataOptions } from "./metadata.js";
export { McpOAuthProvider, type McpOAuthProviderOptions, type PreRegisteredClient } from "./provider.js";
export {
  beginMcpOAuth,
  completeMcpOAuth,
  type BeginMcpOAuthResult,
  type McpOAuthCallbackParams,
  type McpOAuthFlowOptions,
} from "./flow.js";
export { startCallbackListener, type OAuthCallbackListener } from "./callback-listener.js";
export { canOpenBrowser, openInBrowser, openerCommand } from "./browser.js";
export { runMcpOAuth, type McpOAuthVerify, type RunMcpOAuthOptions, type RunMcpOAuthResult } from "./run.js";
export { McpOAuthError, type McpOAuthStep } from "./errors.js";
