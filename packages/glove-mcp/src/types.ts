/** How to start a local MCP server over stdio (beyond v1: the spec's entries are HTTP only). */
export interface McpStdioCommand {
  command: string;
  args?: string[];
  /** The child's whole environment. Default: the SDK's safe subset (HOME, PATH, …), never the full parent env. */
  env?: Record<string, string>;
  cwd?: string;
}

/** Static, app-level description of one MCP server. */
export interface McpCatalogueEntry {
  /** Stable namespace prefix and activation key. */
  id: string;
  /** Human-readable name; discovery matches user intent against it. */
  name: string;
  /** Short blurb; discovery matches against it too. */
  description: string;
  /** MCP server URL (Streamable HTTP, falling back to legacy SSE). Informational when `stdio` is set. */
  url: string;
  /** Discovery uses these for matching. */
  tags?: string[];
  /** Arbitrary extra info, untouched by the framework. */
  metadata?: Record<string, unknown>;
  /** Beyond v1: start a local command and speak MCP over its stdio instead of HTTP. */
  stdio?: McpStdioCommand;
}

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
  /** Bearer token for an entry; throwing fails activation/reload gracefully. */
  getAccessToken(id: string): Promise<string>;
}
