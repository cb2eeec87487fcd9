import type { ModelWireRequest } from "../../types/index.js";

export const REDACTED = "[redacted]";

/** Headers whose value is a credential, or made from one (request signatures). */
const SECRET_HEADER =
  /^(authorization|proxy-authorization|x-api-key|api-key|x-goog-api-key|cookie|x-amz-security-token)$/i;
/** Query parameters that carry a key on some providers (`?key=` on Google's). */
const SECRET_PARAM = /^(key|api[-_]?key|access[-_]?token|token|sig|signature|x-amz-signature|x-amz-credential)$/i;
/** Values shorter than this are not searched for in the body: too likely to match by chance. */
const MIN_SECRET = 8;

/**
 * The wire request of one call as an observer may keep it: the headers that say something about
 * the request with every credential shown as "[redacted]", the URL's key parameters redacted, and
 * every credential value (and its bearer token) replaced wherever else it appears, body included
 * — an observer never sees a key, however the adapter placed it.
 */
export function wireReport(
  provider: string,
  model: string,
  url: string,
  headers: Record<string, string>,
  body: string,
): ModelWireRequest {
  const secrets = new Set<string>();
  const shown: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (SECRET_HEADER.test(name)) {
      secrets.add(value);
      const token = /^\s*(?:bearer|basic|aws4-hmac-sha256)\s+(.+)$/i.exec(value)?.[1];
      if (token) secrets.add(token.trim());
      shown[name] = REDACTED;
    } else shown[name] = value;
  }
  let shownUrl = url;
  try {
    const parsed = new URL(url);
    for (const [name, value] of [...parsed.searchParams]) {
      if (!SECRET_PARAM.test(name)) continue;
      secrets.add(value);
      parsed.searchParams.set(name, REDACTED);
    }
    if (parsed.username || parsed.password) {
      if (parsed.password) secrets.add(decodeURIComponent(parsed.password));
      parsed.username = "";
      parsed.password = "";
    }
    shownUrl = parsed.toString();
  } catch {
    // Not a URL we can read: its secrets are still replaced below.
  }
  const scrub = (text: string) => {
    let out = text;
    for (const secret of secrets) if (secret.length >= MIN_SECRET) out = out.split(secret).join(REDACTED);
    return out;
  };
  for (const name of Object.keys(shown)) shown[name] = scrub(shown[name]!);
  return { provider, model, url: scrub(shownUrl), headers: shown, body: scrub(body) };
}
