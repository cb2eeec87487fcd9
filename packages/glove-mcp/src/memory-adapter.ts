import type { OAuthClientProvider } from "@modelcontextprotocol/sdk/client/auth.js";
import type { McpAdapter } from "./types.js";

/** What a `MemoryMcpAdapter` starts with; everything is optional. */
export interface MemoryMcpAdapterOptions {
  /** Log-correlation id. Default "default". */
  identifier?: string | undefined;
  /** Entry ids active from the start. */
  active?: Iterable<string> | undefined;
  /** Bearer tokens for HTTP servers. Default: none (no Authorization header). */
  getAccessToken?: McpAdapter["getAccessToken"] | undefined;
  /** An OAuth provider per entry, used instead of `getAccessToken`. */
  getAuthProvider?:
    ((id: string) => OAuthClientProvider | undefined | Promise<OAuthClientProvider | undefined>) | undefined;
}

/**
 * An `McpAdapter` that keeps the active set in memory (lost on restart) and sends no token unless
 * given `getAccessToken`: what `mountMcp` uses when you pass no adapter. Persist the active set
 * per conversation with an adapter of your own.
 */
export class MemoryMcpAdapter implements McpAdapter {
  readonly identifier: string;
  private readonly active: Set<string>;
  private readonly tokens: McpAdapter["getAccessToken"];
  private readonly authProviders: MemoryMcpAdapterOptions["getAuthProvider"];

  constructor(options: MemoryMcpAdapterOptions = {}) {
    this.identifier = options.identifier ?? "default";
    this.active = new Set(options.active ?? []);
    this.tokens = options.getAccessToken ?? (async () => null);
    this.authProviders = options.getAuthProvider;
  }

  async getActive(): Promise<string[]> {
    return [...this.active];
  }

  async activate(id: string): Promise<void> {
    this.active.add(id);
  }

  async deactivate(id: string): Promise<void> {
    this.active.delete(id);
  }

  getAccessToken(id: string): Promise<string | null | undefined> {
    return this.tokens(id);
  }

  /** Undefined without a `getAuthProvider` option: the session then uses `getAccessToken`. */
  async getAuthProvider(id: string): Promise<OAuthClientProvider | undefined> {
    return this.authProviders?.(id);
  }
}
