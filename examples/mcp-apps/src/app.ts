/**
 * The MCP Apps demo: the published MCP Apps example servers (server-basic-react,
 * server-budget-allocator) bridged into a glove-server agent under /api, the page at "/", and
 * the route the page sends apps' tool calls to. `startMcpAppsDemo` is what `npm start` runs and
 * what the tests drive.
 */
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import type { ModelAdapter } from "glove-core";
import { connectMcp, type McpCatalogueEntry, type McpConnection } from "glove-mcp";
import { createGloveServer, listenNode, type GloveServer, type Principal } from "glove-server";
import { appsAgent } from "./agent.js";
import { APP_TOOLS_PATH, appToolsRoute, type OpenConversations } from "./app-tools-route.js";
import { pageFile } from "./page-files.js";

export const API_BASE = "/api";
const PACKAGE_DIR = dirname(dirname(fileURLToPath(import.meta.url)));
export const DEFAULT_UI_DIR = join(PACKAGE_DIR, "ui", "dist");

/** The installed entry script of a published app server. */
export function appServerScript(pkg: "server-basic-react" | "server-budget-allocator"): string {
  // The package exports only its server module (dist/server.js); the bin beside it starts it.
  return join(dirname(createRequire(import.meta.url).resolve(`@modelcontextprotocol/${pkg}`)), "index.js");
}

/** Both example servers over stdio, as `npm start` runs them (offline, no setup). */
export function defaultServers(): McpCatalogueEntry[] {
  const stdio = (
    id: string,
    name: string,
    pkg: "server-basic-react" | "server-budget-allocator",
  ): McpCatalogueEntry => ({
    id,
    name,
    description: `${name} (@modelcontextprotocol/${pkg})`,
    url: `stdio://${id}`,
    stdio: {
      command: process.execPath,
      args: [appServerScript(pkg), "--stdio"],
      env: { PATH: process.env.PATH ?? "" },
    },
  });
  return [
    stdio("basic", "Get time", "server-basic-react"),
    stdio("budget", "Budget allocator", "server-budget-allocator"),
  ];
}

export interface McpAppsDemoOptions {
  /** Default 8788; 0 picks a free port. */
  port?: number;
  /** The MCP servers (their ids are the tool namespaces). Default: both examples over stdio. */
  servers?: McpCatalogueEntry[];
  /** Default: the offline script. */
  model?: () => ModelAdapter;
  /** Folder of the SQLite file. Default: in memory. */
  dataDir?: string;
  uiDir?: string;
}

export interface McpAppsDemo {
  url: string;
  server: GloveServer;
  connections: ReadonlyMap<string, McpConnection>;
  close(): Promise<void>;
}

/** DEMO identity: the page and curl are one local user (the server listens on 127.0.0.1 only). */
const LOCAL_USER: Principal = { id: "local-user" };

export async function startMcpAppsDemo(options: McpAppsDemoOptions = {}): Promise<McpAppsDemo> {
  const connections = new Map<string, McpConnection>();
  try {
    for (const entry of options.servers ?? defaultServers()) connections.set(entry.id, await connectMcp(entry));
  } catch (error) {
    await Promise.all([...connections.values()].map((c) => c.close()));
    throw error;
  }
  const conversations: OpenConversations = new Map();
  const authenticate = () => LOCAL_USER;
  const server = createGloveServer({
    agents: {
      apps: appsAgent(
        [...connections.values()],
        (context, glove) => conversations.set(context.conversationId, { glove, owner: context.principal.id }),
        options.model,
      ),
    },
    authenticate,
    basePath: API_BASE,
    ...(options.dataDir ? { dataDir: options.dataDir } : {}),
  });
  const toolsCall = appToolsRoute({ connections, conversations, authenticate });
  const uiDir = options.uiDir ?? DEFAULT_UI_DIR;
  const listening = await listenNode(
    async (request) => {
      const { pathname } = new URL(request.url);
      if (pathname === APP_TOOLS_PATH) return toolsCall(request);
      if (pathname === API_BASE || pathname.startsWith(`${API_BASE}/`)) return server.fetch(request);
      if (request.method === "GET")
        return (await pageFile(uiDir, pathname)) ?? new Response("Not found.\n", { status: 404 });
      return new Response("Not found.\n", { status: 404 });
    },
    { port: options.port ?? 8788, host: "127.0.0.1" },
  );
  return {
    url: listening.url,
    server,
    connections,
    async close() {
      await server.close();
      await listening.close();
      await Promise.all([...connections.values()].map((c) => c.close()));
    },
  };
}
