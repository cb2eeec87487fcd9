/// <reference types="node" />
/**
 * `#http-transport` in Node (package.json "imports", condition "node"): `node:http` unless
 * something says the user wants `fetch`. Browsers and other runtimes get ./platform-fetch.ts, so
 * no `node:` import reaches a browser bundle (decision 0007, 0035).
 */
import { fetchTransport } from "./fetch.js";
import { nodeTransport } from "./node.js";
import type { HttpTransport } from "./types.js";

/** The platform's fetch as this module found it: a different one later means someone wrapped it. */
const nativeFetch = globalThis.fetch;
const platformFetch = fetchTransport();
// Node ≥ 24 routes fetch through HTTP(S)_PROXY when this is set; our agents would not.
const envProxy = typeof process !== "undefined" && !!process.env["NODE_USE_ENV_PROXY"];
// undici's setGlobalDispatcher (a ProxyAgent, a MockAgent, custom TLS) stores it here; so does
// Node itself, with a plain Agent, the first time anything calls fetch.
const dispatcherKey = Symbol.for("undici.globalDispatcher.1");
let lastDispatcher: { value: unknown; custom: boolean } | undefined;

/** Whether the global dispatcher is one the user set (anything but an Agent with no options). */
function customDispatcher(): boolean {
  const value = (globalThis as Record<symbol, unknown>)[dispatcherKey];
  if (value === undefined || value === null) return false;
  if (lastDispatcher?.value === value) return lastDispatcher.custom;
  let custom = true;
  if (typeof value === "object" && value.constructor?.name === "Agent") {
    const key = Object.getOwnPropertySymbols(value).find((symbol) => symbol.description === "options");
    const options = key ? (value as Record<symbol, unknown>)[key] : undefined;
    custom = !!options && typeof options === "object" && Object.values(options).some((v) => v !== undefined);
  }
  lastDispatcher = { value, custom };
  return custom;
}

/**
 * The transport for a request. `fetch` when given one; also when `globalThis.fetch` was
 * replaced since glove-core loaded (an instrumentation, a mock), when an undici global
 * dispatcher is set, or when Node is told to use the environment's proxy — all of which only
 * `fetch` honours. Otherwise `node:http`.
 */
export function chooseTransport(doFetch: typeof fetch | undefined): HttpTransport {
  if (doFetch) return fetchTransport(doFetch);
  if (globalThis.fetch !== nativeFetch || envProxy || customDispatcher()) return platformFetch;
  return nodeTransport;
}
