/**
 * The published MCP Apps example servers (`@modelcontextprotocol/server-basic-react` and
 * `server-budget-allocator`), started over stdio (as catalogue entries) or HTTP on a free
 * loopback port.
 */
import type { McpCatalogueEntry } from "glove-mcp";
import { minimalEnv, serverScript, startLoopbackServer, type RunningServer } from "../support/servers.js";

export type AppServer = "server-basic-react" | "server-budget-allocator";

/** A catalogue entry that starts the server over stdio. */
export function stdioAppEntry(pkg: AppServer, id: string): McpCatalogueEntry {
  return {
    id,
    name: pkg,
    description: `${pkg} over stdio`,
    url: `stdio://${id}`,
    stdio: { command: process.execPath, args: [serverScript(pkg), "--stdio"], env: minimalEnv() },
  };
}

/** The server's Streamable HTTP mode on 127.0.0.1 (the preload binds loopback and reports the port). */
export function startAppServerHttp(pkg: AppServer): Promise<RunningServer> {
  return startLoopbackServer(serverScript(pkg), [], "mcp", pkg);
}
