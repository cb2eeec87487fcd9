export { FsOAuthStore, MemoryOAuthStore, type McpOAuthRecord, type OAuthStore } from "./store.js";
export {
  applicationTypeFor,
  buildClientMetadata,
  loopbackRedirectUrl,
  type BuildClientMetadataOptions,
  type McpClientMetadata,
} from "./metadata.js";
// Machine-to-machine grants: pass one as `connectMcp`'s `authProvider` (or from `adapter.getAuthProvider`).
export {
  ClientCredentialsProvider,
  createPrivateKeyJwtAuth,
  PrivateKeyJwtProvider,
  StaticPrivateKeyJwtProvider,
  type ClientCredentialsProviderOptions,
  type PrivateKeyJwtProviderOptions,
  type StaticPrivateKeyJwtProviderOptions,
} from "@modelcontextprotocol/sdk/client/auth-extensions.js";
export { McpOAuthProvider, type McpOAuthProviderOptions, type PreRegisteredClient } from "./provider.js";
export { checkClientMetadataUrl, clientMetadataDocument } from "./client-id-metadata.js";
// JWT-bearer grants (RFC 7523): workload identity federation and enterprise cross-app access.
export { JWT_BEARER_GRANT, type AssertionAudience, type JwtBearerClientOptions } from "./jwt-bearer-grant.js";
export { WorkloadIdentityProvider, type WorkloadIdentityProviderOptions } from "./workload-identity.js";
export { CrossAppAccessProvider, type CrossAppAccessProviderOptions } from "./cross-app-access.js";
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
