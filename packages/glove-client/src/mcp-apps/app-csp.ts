import type { McpAppCsp } from "./types.js";

/**
 * One origin an app may name: a scheme, a host (a leading `*.` allowed) and an optional port —
 * nothing that could close a directive or add a keyword (`'unsafe-eval'`, `;`, spaces).
 */
const SOURCE = /^(https?|wss?):\/\/(\*\.)?[a-z0-9-]+(\.[a-z0-9-]+)*(:\d{1,5})?$/i;

/** The declared origins that are well-formed sources; the rest are dropped, never loosened into. */
export function safeSources(list: readonly unknown[] | undefined): string[] {
  return (list ?? []).filter((s): s is string => typeof s === "string" && SOURCE.test(s));
}

function directive(name: string, base: readonly string[], extra: readonly string[], none = "'none'"): string {
  const sources = [...base, ...extra];
  return `${name} ${sources.length > 0 ? sources.join(" ") : none}`;
}

/**
 * The app's Content-Security-Policy: nothing by default (inline script and style only, images and
 * media from data:), each directive opened only to the origins the resource declared. No `'self'`:
 * the sandboxed document has no origin of its own, and the page's origin must stay unreachable.
 */
export function appCsp(csp: McpAppCsp | undefined): string {
  const resources = safeSources(csp?.resourceDomains);
  return [
    "default-src 'none'",
    directive("script-src", ["'unsafe-inline'"], resources),
    directive("style-src", ["'unsafe-inline'"], resources),
    directive("img-src", ["data:", "blob:"], resources),
    directive("font-src", ["data:"], resources),
    directive("media-src", ["data:", "blob:"], resources),
    directive("connect-src", [], safeSources(csp?.connectDomains)),
    directive("frame-src", [], safeSources(csp?.frameDomains)),
    directive("base-uri", [], safeSources(csp?.baseUriDomains)),
    "object-src 'none'",
    "form-action 'none'",
  ].join("; ");
}

/** The CSP metadata the host honours (reported back to the app as `hostCapabilities.sandbox.csp`). */
export function grantedCsp(csp: McpAppCsp | undefined): McpAppCsp {
  return {
    connectDomains: safeSources(csp?.connectDomains),
    resourceDomains: safeSources(csp?.resourceDomains),
    frameDomains: safeSources(csp?.frameDomains),
    baseUriDomains: safeSources(csp?.baseUriDomains),
  };
}

const LEADING_DOCTYPE = /^\uFEFF?\s*(?:<!--[\s\S]*?-->\s*)*<!doctype[^>]*>/i;

function attribute(value: string): string {
  return value.replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;");
}

/**
 * The document the iframe loads: the policy as the very first element, before anything of the
 * app's (a script placed ahead of its own <head> still comes after it), in standards mode.
 */
export function appDocument(html: string, policy: string): string {
  return `<!DOCTYPE html><meta http-equiv="Content-Security-Policy" content="${attribute(policy)}">${html.replace(LEADING_DOCTYPE, "")}`;
}
