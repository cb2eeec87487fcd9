import type { OAuthClientProvider } from "@modelcontextprotocol/sdk/client/auth.js";
import type { OAuthClientMetadata, OAuthTokens } from "@modelcontextprotocol/sdk/shared/auth.js";
import type { ScopeChallengeLog } from "./scope-challenge.js";
import { unionScope } from "./scope-union.js";

/**
 * Wraps an `OAuthClientProvider` so the SDK's step-up on 403 `insufficient_scope` actually asks
 * for the challenged scope. The SDK re-runs `auth()` with the challenge's scope, but a
 * non-interactive provider's token request reads `clientMetadata.scope`, and a stored refresh
 * token is exchanged for one with the old scope; both then fail the same way again. While a
 * challenge is pending, the wrapper reports the union of the configured and challenged scopes
 * as `clientMetadata.scope` and hides the refresh token, so the SDK requests a new grant (a
 * client-credentials token for that union at once, or an authorization URL for the challenged
 * scope through `redirectToAuthorization`, widened to keep the scopes the token already holds).
 * The next saved tokens end the step-up. Everything else reaches the provider untouched
 * (a Proxy keeps which optional methods exist, which the SDK checks).
 */
export function withScopeStepUp(provider: OAuthClientProvider, log: ScopeChallengeLog): OAuthClientProvider {
  let pending: string | undefined;
  let granted: string | undefined;
  log.onChallenge((challenge) => {
    // The challenged scope leads: servers and authorization pages read the first words as the request.
    pending = unionScope(challenge.scope, granted, provider.clientMetadata.scope);
  });
  return new Proxy(provider, {
    get(target, property, receiver) {
      if (property === "clientMetadata") {
        const metadata: OAuthClientMetadata = target.clientMetadata;
        const scope = pending ?? unionScope(granted, metadata.scope);
        return scope ? { ...metadata, scope } : metadata;
      }
      if (property === "tokens") {
        return async (): Promise<OAuthTokens | undefined> => {
          const tokens = await target.tokens();
          if (!tokens || pending === undefined) return tokens;
          const { refresh_token: _dropped, ...rest } = tokens;
          return rest;
        };
      }
      if (property === "saveTokens") {
        return async (tokens: OAuthTokens) => {
          if (pending !== undefined) granted = pending;
          pending = undefined;
          await target.saveTokens(tokens);
        };
      }
      if (property === "redirectToAuthorization") {
        // The SDK asks for the challenged scope alone; keep what the token already carries (SEP-2350).
        return async (url: URL) => {
          if (pending !== undefined) {
            const held = (await target.tokens())?.scope;
            const scope = unionScope(url.searchParams.get("scope") ?? undefined, pending, held);
            if (scope) url.searchParams.set("scope", scope);
          }
          await target.redirectToAuthorization(url);
        };
      }
      const value: unknown = Reflect.get(target, property, receiver);
      return typeof value === "function" ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
}
