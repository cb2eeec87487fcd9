import type { McpConnection } from "../connect.js";
import { messageOf } from "../errors.js";
import { McpAppError } from "./app-errors.js";
import { MCP_APP_MIME_TYPE } from "./tool-ui.js";

/** Origins an app declares it needs (`_meta.ui.csp`); the host builds the iframe's CSP from them. */
export interface McpAppCsp {
  connectDomains?: string[];
  resourceDomains?: string[];
  frameDomains?: string[];
  baseUriDomains?: string[];
}

/** Browser features an app asks for (`_meta.ui.permissions`); hosts may grant none. */
export interface McpAppPermissions {
  camera?: Record<string, never>;
  microphone?: Record<string, never>;
  geolocation?: Record<string, never>;
  clipboardWrite?: Record<string, never>;
}

/** An app's UI as read from its server: the HTML and the metadata that says how to sandbox it. */
export interface McpAppResource {
  uri: string;
  mimeType: string;
  html: string;
  csp?: McpAppCsp;
  permissions?: McpAppPermissions;
  prefersBorder?: boolean;
}

const CSP_KEYS = ["connectDomains", "resourceDomains", "frameDomains", "baseUriDomains"] as const;
const PERMISSION_KEYS = ["camera", "microphone", "geolocation", "clipboardWrite"] as const;

function record(value: unknown): Record<string, unknown> | undefined {
  return value !== null && typeof value === "object" && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;
}

/** Only string lists survive: the metadata travels to the browser, where it becomes a CSP. */
function readCsp(value: unknown): McpAppCsp | undefined {
  const csp = record(value);
  if (!csp) return undefined;
  const out: McpAppCsp = {};
  for (const key of CSP_KEYS) {
    const list = csp[key];
    if (Array.isArray(list)) out[key] = list.filter((item): item is string => typeof item === "string");
  }
  return out;
}

function readPermissions(value: unknown): McpAppPermissions | undefined {
  const asked = record(value);
  if (!asked) return undefined;
  const out: McpAppPermissions = {};
  for (const key of PERMISSION_KEYS) if (record(asked[key])) out[key] = {};
  return out;
}

function decodeBase64(blob: string): string | undefined {
  try {
    return new TextDecoder().decode(Uint8Array.from(atob(blob), (c) => c.charCodeAt(0)));
  } catch {
    return undefined;
  }
}

async function readResource(connection: McpConnection, uri: string): Promise<McpAppResource> {
  let contents: unknown[];
  try {
    contents = (await connection.client.readResource({ uri })).contents;
  } catch (error) {
    throw new McpAppError(
      "invalid_resource",
      `${connection.entry.name} could not read its app ${uri}: ${messageOf(error)}`,
      { cause: error },
    );
  }
  const item = contents.map(record).find((c) => c?.uri === uri) ?? record(contents[0]);
  const mimeType = typeof item?.mimeType === "string" ? item.mimeType : "";
  if (!item || mimeType.replace(/\s+/g, "").toLowerCase() !== MCP_APP_MIME_TYPE) {
    throw new McpAppError(
      "invalid_resource",
      `${connection.entry.name}'s app ${uri} is not ${MCP_APP_MIME_TYPE} (got ${mimeType || "no content"}).`,
    );
  }
  const html =
    typeof item.text === "string" ? item.text : typeof item.blob === "string" ? decodeBase64(item.blob) : undefined;
  if (!html) throw new McpAppError("invalid_resource", `${connection.entry.name}'s app ${uri} has no HTML.`);
  const ui = record(record(item._meta)?.ui);
  const csp = readCsp(ui?.csp);
  const permissions = readPermissions(ui?.permissions);
  return {
    uri,
    mimeType: MCP_APP_MIME_TYPE,
    html,
    ...(csp ? { csp } : {}),
    ...(permissions ? { permissions } : {}),
    ...(typeof ui?.prefersBorder === "boolean" ? { prefersBorder: ui.prefersBorder } : {}),
  };
}

const cache = new WeakMap<object, Map<string, Promise<McpAppResource>>>();

/**
 * Reads an app's `ui://` resource once per connection (apps are static templates; their data
 * arrives as tool input and result). A failed read is not kept, so the next call tries again.
 */
export function readAppResource(connection: McpConnection, uri: string): Promise<McpAppResource> {
  let byUri = cache.get(connection.client);
  if (!byUri) cache.set(connection.client, (byUri = new Map()));
  const known = byUri.get(uri);
  if (known) return known;
  const reading = readResource(connection, uri);
  byUri.set(uri, reading);
  reading.catch(() => byUri.delete(uri));
  return reading;
}
