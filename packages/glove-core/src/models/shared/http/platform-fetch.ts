/**
 * `#http-transport` outside Node (browsers, Deno, Bun, edge runtimes): always `fetch`. The Node
 * build maps the same specifier to ./platform-node.ts (package.json "imports").
 */
import { fetchTransport } from "./fetch.js";
import type { HttpTransport } from "./types.js";

const platform = fetchTransport();

/** The transport for a request: over the `fetch` option when given, else the platform's `fetch`. */
export function chooseTransport(doFetch: typeof fetch | undefined): HttpTransport {
  return doFetch ? fetchTransport(doFetch) : platform;
}
