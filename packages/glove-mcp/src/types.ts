import type { OAuthClientProvider } from "@modelcontextprotocol/sdk/client/auth.js";
import type { McpRoot } from "./client-features/types.js";

/** How to start a local MCP server over stdio (beyond v1: the spec's entries are HTTP only). */
export interface McpStdioCommand {
  command: string;
  args?: string[];
  /** The child's whole environment. Default: the SDK's safe subset (HOME, PATH, …), never the full parent env. */
  env?: Record<string, string>;
  cwd?: string;
}

/** What a catalogue entry says about its server, whatever the transport. */
export interface McpEntryInfo {
  /** Stable namespace prefix and activation key. */
  id: string;
  /** Human-readable name; discovery matches user intent against it. */
  name: string;
  /** Short blurb; discovery matches against it too. */
  description: string;
  /** Discovery uses these for matching. */
  tags?: string[];
  /** Arbitrary extra info, untouched by the framework. */
  metadata?: Record<string, unknown>;
  /**
   * How long one tool call may go without an answer or a progress notification (each progress
   * notification restarts it). Default 60 000 ms.
   */
  timeoutMs?: number;
  /** Ceiling for one tool call however much progress it reports. Default 600 000 ms. */
  maxTotalTimeoutMs?: number;
  /** Roots offered to this server (`roots/list`) when the mount's client features are on. */
  roots?: McpRoot[];
}

/**
 * Static, app-level description of one MCP server: an HTTP `url` (Streamable HTTP, falling back to
 * legacy SSE), or beyond v1 a local command over `stdio` (any `url` is then informational).
 */
export type McpCatalogueEntry = McpEntryInfo &
  ({ url: string; stdio?: undefined } | { url?: string; stdio: McpStdioCommand });

/** Per-conversation MCP state: the active set and the token seam. */
export interface McpAdapter {
  /** Log-correlation id, typically the conversation id. */
  identifier: string;
  /** Active entry ids in this conversation. */
  getActive(): Promise<string[]>;
  /** Mark active (after a successful connect + fold). */
  activate(id: string): Promise<void>;
  /** Mark inactive. */
  deactivate(id: string): Promise<void>;
  /**
   * Bearer token for an entry; throwing fails activation/reload gracefully. Resolve null,
   * undefined or "" for a server that needs none: no `Authorization` header is sent.
   */
  getAccessToken(id: string): Promise<string | null | undefined>;
  /**
   * Optional: an SDK `OAuthClientProvider` for an entry (client credentials, private-key JWT, a
   * store-backed `McpOAuthProvider`). When it returns one, the transport authorizes with it (and
   * steps up on `insufficient_scope`) instead of calling `getAccessToken`.
   */
  getAuthProvider?(id: string): OAuthClientProvider | undefined | Promise<OAuthClientProvider | undefined>;
}
