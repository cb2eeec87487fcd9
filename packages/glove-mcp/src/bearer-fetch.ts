import type { FetchLike } from "@modelcontextprotocol/sdk/shared/transport.js";

/**
 * A fetch for the MCP transports that sends `Authorization: Bearer <token>` and, when the server
 * answers 401, asks `getAccessToken` once more: if the app has stored a new token meanwhile
 * (refreshed after an `auth_expired`), the request is repeated with it, so a live connection
 * survives a refresh. A 401 with no new token is returned as is and surfaces as `auth_expired`.
 * Repeating is safe: the server rejected the request before acting on it.
 */
export function bearerFetch(initialToken: string, getAccessToken: () => Promise<string>, base: FetchLike = fetch): FetchLike {
  let token = initialToken;
  const send = (url: string | URL, init: RequestInit | undefined, bearer: string) => {
    const headers = new Headers(init?.headers);
    headers.set("Authorization", `Bearer ${bearer}`);
    return base(url, { ...init, headers });
  };
  return async (url, init) => {
    const sent = token;
    const response = await send(url, init, sent);
    if (response.status !== 401) return response;
    let next: string;
    try {
      next = await getAccessToken();
    } catch {
      return response;
    }
    if (next === sent) return response;
    token = next;
    await response.body?.cancel().catch(() => undefined);
    return send(url, init, next);
  };
}
