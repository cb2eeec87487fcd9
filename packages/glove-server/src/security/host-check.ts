import { ConfigurationError } from "glove-core";
import { HttpError, quoted } from "../errors.js";

/** Whether the server answers to a host name (lower case, IPv6 in brackets, as URL gives it). */
export type HostAllowed = (hostname: string) => boolean;

/**
 * The host names a server answers to: `allowedHosts`, plus the names a DNS rebinding attack
 * cannot use. Such an attack points a name the attacker owns at this server's address, so the
 * victim's browser sends that name as Host; an IP address or `localhost` in Host means the page
 * itself was loaded from that address, and the hosts of `allowedOrigins` are trusted already.
 * See docs/decisions/0018-http-hardening.md.
 */
export function hostPolicy(
  allowedHosts: readonly string[] | undefined,
  allowedOrigins: Iterable<string>,
  owner = "createGloveServer",
): HostAllowed {
  if (allowedHosts !== undefined && !Array.isArray(allowedHosts)) {
    throw new ConfigurationError(`${owner}: allowedHosts must be an array of host names, got ${typeof allowedHosts}.`);
  }
  const exact = new Set<string>(["localhost"]);
  const suffixes: string[] = [];
  for (const origin of allowedOrigins) {
    const url = URL.parse(origin);
    if (url?.hostname) exact.add(bare(url.hostname));
  }
  for (const entry of allowedHosts ?? []) {
    if (entry === "*") return () => true;
    if (typeof entry === "string" && entry.startsWith("*."))
      suffixes.push(`.${hostName(entry.slice(2), entry, owner)}`);
    else exact.add(hostName(entry, entry, owner));
  }
  return (hostname) => {
    const name = bare(hostname);
    return isIpAddress(name) || exact.has(name) || suffixes.some((suffix) => name.endsWith(suffix));
  };
}

/** Refuses a request for a host the server does not answer to: 421, before routing and authentication. */
export function checkHost(url: URL, allowed: HostAllowed): void {
  const { hostname } = url;
  if (allowed(hostname)) return;
  throw new HttpError(
    421,
    "GLOVE_HOST_NOT_ALLOWED",
    `This server does not answer to the host ${quoted(hostname)}. If it should, add the name to allowedHosts (other names are refused to stop DNS rebinding).`,
  );
}

/** An allowedHosts entry as URL spells host names; a port, path or anything else is a mistake. */
function hostName(name: unknown, entry: unknown, owner: string): string {
  const url = typeof name === "string" ? URL.parse(`http://${name}`) : null;
  if (!url || url.hostname === "" || url.href !== `http://${url.hostname}/`) {
    throw new ConfigurationError(
      `${owner}: allowedHosts entry ${JSON.stringify(entry)} is not a host name. List names without a port, like "app.example.com", "*.example.com" (subdomains) or "*" (any).`,
    );
  }
  return bare(url.hostname);
}

/** Lower case without the trailing dot of a fully qualified name ("example.com." is "example.com"). */
function bare(hostname: string): string {
  return hostname.toLowerCase().replace(/\.$/, "");
}

/** URL normalises IPv4 addresses to four decimal parts and puts IPv6 addresses in brackets. */
function isIpAddress(hostname: string): boolean {
  return hostname.startsWith("[") || /^\d{1,3}(\.\d{1,3}){3}$/.test(hostname);
}
