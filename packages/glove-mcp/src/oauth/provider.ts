import { randomBytes } from "node:crypto";
import type { OAuthClientProvider, OAuthDiscoveryState } from "@modelcontextprotocol/sdk/client/auth.js";
import type {
  OAuthClientInformationMixed,
  OAuthClientMetadata,
  OAuthTokens,
} from "@modelcontextprotocol/sdk/shared/auth.js";
import { checkClientMetadataUrl } from "./client-id-metadata.js";
import { checkIssuerPin, checkPinnedIssuer } from "./issuer-pin.js";
import { checkMetadataIssuer } from "./metadata-issuer.js";
import type { McpOAuthRecord, OAuthStore } from "./store.js";

/** Credentials issued out of band, for servers without Dynamic Client Registration. */
export interface PreRegisteredClient {
  client_id: string;
  client_secret?: string;
  /**
   * The issuer URL of the authorization server that issued these credentials. When set, they are
   * only ever sent there: an MCP server whose metadata names another authorization server fails
   * with an `McpOAuthError` (step `discovery`) before anything is sent. Without it, the MCP server
   * decides where they go.
   */
  issuer?: string;
}

/** What an McpOAuthProvider needs: where tokens are stored, the redirect URI and the client registration. */
export interface McpOAuthProviderOptions {
  store: OAuthStore;
  /** The store key of this server's record. */
  key: string;
  /** Where the authorization server sends the browser back. */
  redirectUrl: string;
  /** Registration metadata (see `buildClientMetadata`). */
  clientMetadata: OAuthClientMetadata;
  /** Used instead of registering; never written to the store. */
  preRegisteredClient?: PreRegisteredClient;
  /**
   * An https URL where the app serves its Client ID Metadata Document (see
   * `clientMetadataDocument`). Authorization servers that advertise
   * `client_id_metadata_document_supported` get this URL as the client id, with no registration
   * (even when `preRegisteredClient` is set); others get the pre-registered client, else Dynamic
   * Client Registration.
   */
  clientMetadataUrl?: string;
  /** Receives the authorization URL the user must open. */
  onAuthorizationUrl?: (url: URL) => void | Promise<void>;
}

/**
 * The MCP SDK's `OAuthClientProvider`, backed by an `OAuthStore`: tokens, the registered
 * client, the PKCE verifier, the pending `state` and discovery results all live under one key,
 * so a flow started in one process (or request handler) can be finished in another.
 */
export class McpOAuthProvider implements OAuthClientProvider {
  readonly store: OAuthStore;
  readonly key: string;
  private readonly options: McpOAuthProviderOptions;
  /** Set while an authorization code is exchanged: the tokens saved next answer the authorization. */
  private exchangingCode = false;

  constructor(options: McpOAuthProviderOptions) {
    if (options.clientMetadataUrl !== undefined) checkClientMetadataUrl(options.clientMetadataUrl);
    if (options.preRegisteredClient?.issuer !== undefined) checkIssuerPin(options.preRegisteredClient.issuer);
    this.options = options;
    this.store = options.store;
    this.key = options.key;
  }

  get redirectUrl(): string {
    return this.options.redirectUrl;
  }

  /** Read by the SDK: the URL-based client id, when the authorization server accepts one. */
  get clientMetadataUrl(): string | undefined {
    return this.options.clientMetadataUrl;
  }

  get clientMetadata(): OAuthClientMetadata {
    return this.options.clientMetadata;
  }

  /** A fresh random `state` per authorization, persisted so the callback can be checked. */
  async state(): Promise<string> {
    const state = randomBytes(24).toString("base64url");
    await this.update({ state });
    return state;
  }

  /** True when `received` is the `state` of the authorization in progress. */
  async checkState(received: string | null | undefined): Promise<boolean> {
    const { state } = await this.store.get(this.key);
    return typeof received === "string" && state !== undefined && received === state;
  }

  async clientInformation(): Promise<OAuthClientInformationMixed | undefined> {
    // The metadata document comes first where the authorization server takes it (read from discovery).
    if (this.options.clientMetadataUrl && (await this.serverTakesMetadataDocuments()))
      return { client_id: this.options.clientMetadataUrl };
    const preRegistered = this.options.preRegisteredClient;
    if (preRegistered) {
      // Discovery is saved before the SDK reads the client: the pin is checked against what it found.
      if (preRegistered.issuer !== undefined) checkPinnedIssuer(preRegistered, await this.discoveryState());
      // With `issuer` the SDK also treats the credentials as bound to that authorization server.
      return { ...preRegistered };
    }
    const stored = (await this.store.get(this.key)).clientInformation;
    // A client registered for another callback URL (another port) cannot finish this flow:
    // report none, so the flow registers again.
    const registered = stored && "redirect_uris" in stored ? stored.redirect_uris : undefined;
    if (registered && !registered.includes(this.redirectUrl)) return undefined;
    return stored;
  }

  private async serverTakesMetadataDocuments(): Promise<boolean> {
    const metadata = (await this.discoveryState())?.authorizationServerMetadata as
      { client_id_metadata_document_supported?: unknown } | undefined;
    return metadata?.client_id_metadata_document_supported === true;
  }

  async saveClientInformation(clientInformation: OAuthClientInformationMixed): Promise<void> {
    // Pre-registered secrets and the metadata URL come from the app's configuration; they are not copied to disk.
    if (this.options.preRegisteredClient || clientInformation.client_id === this.options.clientMetadataUrl) return;
    await this.update({ clientInformation });
  }

  async tokens(): Promise<OAuthTokens | undefined> {
    return (await this.store.get(this.key)).tokens;
  }

  async saveTokens(tokens: OAuthTokens): Promise<void> {
    // A response without `scope` was granted what was asked (RFC 6749 §5.1): the authorization's
    // requested scope, or for a refresh the scope of the tokens it replaces (§6).
    const record = await this.store.get(this.key);
    const scope = tokens.scope ?? (this.exchangingCode ? record.requestedScope : record.tokens?.scope);
    this.exchangingCode = false;
    // The exchange is done: the verifier, state and requested scope are single-use.
    await this.update({
      tokens: scope === undefined ? tokens : { ...tokens, scope },
      codeVerifier: undefined,
      state: undefined,
      requestedScope: undefined,
    });
  }

  async redirectToAuthorization(authorizationUrl: URL): Promise<void> {
    await this.update({ requestedScope: authorizationUrl.searchParams.get("scope") || undefined });
    await this.options.onAuthorizationUrl?.(authorizationUrl);
  }

  async saveCodeVerifier(codeVerifier: string): Promise<void> {
    await this.update({ codeVerifier });
  }

  async codeVerifier(): Promise<string> {
    // Read only to exchange an authorization code (a refresh never asks for it).
    this.exchangingCode = true;
    const { codeVerifier } = await this.store.get(this.key);
    if (!codeVerifier)
      throw new Error(`No PKCE code verifier is stored for "${this.key}": start the authorization again.`);
    return codeVerifier;
  }

  async saveDiscoveryState(discovery: OAuthDiscoveryState): Promise<void> {
    checkMetadataIssuer(discovery);
    await this.update({ discovery });
  }

  async discoveryState(): Promise<OAuthDiscoveryState | undefined> {
    return (await this.store.get(this.key)).discovery;
  }

  async invalidateCredentials(scope: "all" | "client" | "tokens" | "verifier" | "discovery"): Promise<void> {
    const cleared: Partial<Record<keyof McpOAuthRecord, undefined>> = {};
    if (scope === "all" || scope === "client") cleared.clientInformation = undefined;
    if (scope === "all" || scope === "tokens") cleared.tokens = undefined;
    if (scope === "all" || scope === "verifier") cleared.codeVerifier = undefined;
    if (scope === "all" || scope === "discovery") cleared.discovery = undefined;
    await this.update(cleared);
  }

  private async update(patch: Partial<McpOAuthRecord>): Promise<void> {
    const record: McpOAuthRecord = { ...(await this.store.get(this.key)), ...patch };
    for (const field of Object.keys(record) as Array<keyof McpOAuthRecord>) {
      if (record[field] === undefined) delete record[field];
    }
    await this.store.set(this.key, record);
  }
}
