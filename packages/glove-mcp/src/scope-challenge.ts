import { extractWWWAuthenticateParams } from "@modelcontextprotocol/sdk/client/auth.js";
import type { FetchLike } from "@modelcontextprotocol/sdk/shared/transport.js";

/** A 403 `insufficient_scope` challenge the server sent. */
export interface ScopeChallenge {
  /** The `scope` the challenge asks for, when it names one. */
  scope?: string;
  resourceMetadataUrl?: string;
}

/**
 * Remembers the `insufficient_scope` challenges a connection's HTTP traffic met. The SDK turns a 403
 * into an error carrying only the status and body, so the challenge is read here, at the fetch, and
 * a failed call looks up whether one arrived while it ran (`mark()` before, `since(mark)` after).
 */
export class ScopeChallengeLog {
  private count = 0;
  private last: ScopeChallenge | undefined;
  private readonly listeners = new Set<(challenge: ScopeChallenge) => void>();

  /** Called with each challenge as it arrives, before the transport reacts to the 403. */
  onChallenge(listener: (challenge: ScopeChallenge) => void): void {
    this.listeners.add(listener);
  }

  /** A position in the log; pass it to `since`. */
  mark(): number {
    return this.count;
  }

  /** The latest challenge recorded after `mark`, if any. */
  since(mark: number): ScopeChallenge | undefined {
    return this.count > mark ? this.last : undefined;
  }

  /** Wraps a fetch so every 403 `insufficient_scope` response is recorded (and passed on unchanged). */
  wrap(base: FetchLike): FetchLike {
    return async (url, init) => {
      const response = await base(url, init);
      if (response.status === 403) {
        const { error, scope, resourceMetadataUrl } = extractWWWAuthenticateParams(response);
        if (error === "insufficient_scope") {
          this.count++;
          const challenge = {
            ...(scope ? { scope } : {}),
            ...(resourceMetadataUrl ? { resourceMetadataUrl: resourceMetadataUrl.href } : {}),
          };
          this.last = challenge;
          for (const listener of this.listeners) listener(challenge);
        }
      }
      return response;
    };
  }
}
