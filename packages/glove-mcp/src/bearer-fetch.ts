import { extractWWWAuthenticateParams } from "@modelcontextprotocol/sdk/client/auth.js";
import type { FetchLike } from "@modelcontextprotocol/sdk/shared/transport.js";

/** A token source: a missing, null or empty token means "send no Authorization header". */
export type AccessTokenSource = () => Promise<string | null | undefined>;

/** A 401, or a 403 `insufficient_scope`: refusals a token the app obtained since may answer. */
function refusesToken(response: Response): boolean {
  if (response.status === 401) return true;
  return response.status === 403 && extractWWWAuthenticateParams(response).error === "insufficient_scope";
}

/**
 * A fetch for the MCP transports that sends `Authorization: Bearer <token>` when there is a token
 * (open servers get no header at all) and, when the server answers 401 or 403 `insufficient_scope`,
 * asks the token source once more: if the app has stored a new token meanwhile (refreshed after an
 * `auth_expired`, or authorized for a wider scope after an `insufficient_scope`), the request is
 * repeated with it, so a live connection survives a refresh or a step-up. A refusal with no new
 * token is returned as is and surfaces as `auth_expired` / `insufficient_scope`. Repeating is safe:
 * the server rejected the request before acting on it.
 */
export function bearerFetch(
  initialToken: string | null | undefined,
  getAccessToken: AccessTokenSource,
  base: FetchLike = fetch,
): FetchLike {
  let token = initialToken || undefined;
  const send = (url: string | URL, init: RequestInit | undefined, bearer: string | undefined) => {
    const headers = new Headers(init?.headers);
    if (bearer) headers.set("Authorization", `Bearer ${bearer}`);
    else headers.delete("Authorization");
    return base(url, { ...init, headers });
  };
  return async (url, init) => {
    const sent = token;
    const response = await send(url, init, sent);
    if (!refusesToken(response)) return response;
    let next: string | undefined;
    try {
      next = (await getAccessToken()) || undefined;
    } catch {
      return response;
    }
    if (next === sent || next === undefined) return response;
    token = next;
    await response.body?.cancel().catch(() => undefined);
    return send(url, init, next);
  };
}
