import { MemoryMcpAdapter, type McpCatalogueEntry } from "glove-mcp";
import { runMcpOAuth, type OAuthStore, type RunMcpOAuthOptions, type RunMcpOAuthResult } from "glove-mcp/oauth";

/** Hosted MCP servers behind OAuth. They need the network and an `auth <id>` run first. */
export const REMOTE_ENTRIES: McpCatalogueEntry[] = [
  {
    id: "notion",
    name: "Notion",
    description: "Read and write Notion pages, databases, comments, and blocks.",
    tags: ["notes", "docs", "wiki"],
    url: "https://mcp.notion.com/mcp",
  },
  {
    id: "gmail",
    name: "Gmail",
    description: "Search, read and draft Gmail messages and labels.",
    tags: ["email", "mail"],
    url: "https://gmailmcp.googleapis.com/mcp/v1",
    // Google has no Dynamic Client Registration: credentials come from the environment.
    metadata: { preRegistered: { clientIdEnv: "GMAIL_OAUTH_CLIENT_ID", clientSecretEnv: "GMAIL_OAUTH_CLIENT_SECRET" } },
  },
];

/** Fixed callback ports: the redirect URI is registered with the port. */
const CALLBACK_PORTS: Record<string, number> = { notion: 53683, gmail: 53684 };
const SCOPES: Record<string, string> = {
  gmail: "https://www.googleapis.com/auth/gmail.readonly https://www.googleapis.com/auth/gmail.compose",
};

export const DEFAULT_TOKEN_FILE = ".glove/mcp-oauth.json";

function preRegisteredClient(
  entry: McpCatalogueEntry,
  env: NodeJS.ProcessEnv,
): RunMcpOAuthOptions["preRegisteredClient"] {
  const spec = entry.metadata?.preRegistered as { clientIdEnv: string; clientSecretEnv: string } | undefined;
  if (!spec) return undefined;
  const clientId = env[spec.clientIdEnv];
  if (!clientId)
    throw new Error(
      `${entry.name} needs pre-registered OAuth credentials: set ${spec.clientIdEnv} and ${spec.clientSecretEnv}.`,
    );
  const secret = env[spec.clientSecretEnv];
  return { client_id: clientId, ...(secret ? { client_secret: secret } : {}) };
}

/** `auth <id>`: runs the OAuth flow for one catalogue entry and stores its tokens. */
export async function authorizeEntry(
  entry: McpCatalogueEntry,
  options: { store: OAuthStore; env?: NodeJS.ProcessEnv } & Partial<RunMcpOAuthOptions>,
): Promise<RunMcpOAuthResult> {
  const { store, env = process.env, ...overrides } = options;
  if (entry.stdio) throw new Error(`${entry.name} runs locally over stdio: it needs no authorization.`);
  const client = preRegisteredClient(entry, env);
  const scope = SCOPES[entry.id];
  return runMcpOAuth({
    serverUrl: entry.url,
    store,
    key: entry.id,
    port: CALLBACK_PORTS[entry.id] ?? 53690,
    ...(client ? { preRegisteredClient: client } : {}),
    ...(scope ? { scope } : {}),
    ...overrides,
  });
}

/**
 * The conversation's adapter: the active set in memory, bearer tokens from the OAuth store.
 * Entries in `local` (loopback and stdio servers) need no token.
 */
export class OAuthStoreMcpAdapter extends MemoryMcpAdapter {
  constructor(identifier: string, store: OAuthStore, local: ReadonlySet<string> = new Set()) {
    super({
      identifier,
      getAccessToken: async (id) => {
        if (local.has(id)) return "local-catalogue-needs-no-token";
        const state = await store.get(id);
        if (state.tokens?.access_token) return state.tokens.access_token;
        throw new Error(`No token for "${id}": run \`npm start -w glove-example-mcp-cli -- auth ${id}\``);
      },
    });
  }
}
