// What both conformance clients share: the scenario context, a headless "browser" for OAuth
// authorization pages, and which tools each scenario expects the client to call.
import process from "node:process";
import { URL } from "node:url";
/* global fetch */

/** MCP_CONFORMANCE_CONTEXT as an object (empty when the scenario sets none). */
export function scenarioContext() {
  const raw = process.env.MCP_CONFORMANCE_CONTEXT;
  return raw ? JSON.parse(raw) : {};
}

/**
 * Plays the user's browser on an authorization URL: follows redirects until one points at the
 * client's redirect URI, and returns that redirect's `code` (the suite's server needs no login).
 */
export async function headlessAuthorize(url, redirectPrefix) {
  let next = new URL(url);
  for (let hop = 0; hop < 5; hop++) {
    const response = await fetch(next, { redirect: "manual" });
    const location = response.headers.get("location");
    if (!location) throw new Error(`authorization page answered ${response.status} without a redirect`);
    next = new URL(location, next);
    if (
      redirectPrefix
        ? next.href.startsWith(redirectPrefix)
        : next.searchParams.has("code") || next.searchParams.has("error")
    ) {
      if (redirectPrefix) return next;
      const code = next.searchParams.get("code");
      if (!code) throw new Error(`authorization refused: ${next.searchParams.get("error")}`);
      return code;
    }
  }
  throw new Error("too many redirects on the authorization page");
}

/** Arguments for the tools the client scenarios expose. */
export function argumentsFor(tool) {
  if (tool.name === "add_numbers") return { a: 5, b: 3 };
  return {};
}

/** Lists the tools and calls each (the scenarios check that the client called them). */
export async function callScenarioTools({ listTools, callTool }) {
  const { tools } = await listTools();
  for (const tool of tools) await callTool(tool.name, argumentsFor(tool));
}
