import { McpConnectError } from "./errors.js";
import type { McpCatalogueEntry, McpEntryInfo, McpStdioCommand } from "./types.js";

/** The namespace of a server given without an `id`: its tools are `mcp__<tool>`. */
export const DEFAULT_MCP_SERVER_ID = "mcp";

/** The optional naming of a short-form server; what is left out gets a default. */
export type McpServerNaming = { [K in keyof McpEntryInfo]?: McpEntryInfo[K] | undefined };

/** A local MCP server started as a command, spoken to over its stdio: `{ command, args?, env?, cwd? }`. */
export interface McpStdioServer extends McpStdioCommand, McpServerNaming {
  url?: never;
  stdio?: never;
}

/** A remote MCP server at a URL: `{ url }`. */
export interface McpHttpServer extends McpServerNaming {
  url: string;
  command?: never;
  stdio?: never;
}

/**
 * One MCP server named by how to reach it, the short form of a catalogue entry: `id` defaults to
 * `"mcp"` (give each server its own when a Glove has several), `name` to the id.
 */
export type McpServerSpec = McpStdioServer | McpHttpServer;

/** A catalogue entry, or the short form of one. */
export type McpServerInput = McpCatalogueEntry | McpServerSpec;

const USAGE =
  'pass { command, args? } for a local server (e.g. { command: "npx", args: ["-y", "@modelcontextprotocol/server-everything"] }) or { url } for a remote one';

/** The catalogue entry a server input stands for; short forms get their defaults here. */
export function toCatalogueEntry(server: McpServerInput): McpCatalogueEntry {
  if (typeof server !== "object" || server === null) throw new McpConnectError(`An MCP server is an object: ${USAGE}.`);
  const id = server.id ?? DEFAULT_MCP_SERVER_ID;
  if (typeof id !== "string" || id === "")
    throw new McpConnectError(
      `An MCP server's id must be a non-empty string (the prefix of its tool names); got ${JSON.stringify(id)}.`,
    );
  const naming = { ...server, id, name: server.name ?? id, description: server.description ?? "" };
  if ("command" in server && server.command !== undefined) {
    const { command, args, env, cwd, ...rest } = server as McpStdioServer;
    if (typeof command !== "string" || command === "")
      throw new McpConnectError(`MCP server "${id}": command must be a non-empty string; ${USAGE}.`);
    if (args !== undefined && !(Array.isArray(args) && args.every((a) => typeof a === "string"))) {
      throw new McpConnectError(`MCP server "${id}": args must be an array of strings.`);
    }
    return {
      ...rest,
      id,
      name: naming.name,
      description: naming.description,
      stdio: { command, ...(args ? { args } : {}), ...(env ? { env } : {}), ...(cwd ? { cwd } : {}) },
    };
  }
  if (server.stdio || typeof server.url === "string") return naming as McpCatalogueEntry;
  throw new McpConnectError(`MCP server "${id}" says neither how to start it nor where it is: ${USAGE}.`);
}
