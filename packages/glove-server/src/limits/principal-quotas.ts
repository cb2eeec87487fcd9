import { tooManyRequests } from "../errors.js";
import type { ConversationCatalog } from "../storage/types.js";
import { ConcurrencyLimiter } from "./concurrency.js";
import { RateLimiter } from "./rate-limiter.js";

/** The per-principal quotas of a Glove server; `Infinity` switches one off. */
export interface QuotaLimits {
  conversationsPerPrincipal: number;
  conversationsPerMinute: number;
  concurrentTurnsPerPrincipal: number;
  turnsPerMinute: number;
}

/**
 * What the operator can do about a quota, in every refusal: the defaults suit a principal per
 * person, not a trusted backend that calls as one principal for many end users.
 */
function raiseOrTurnOff(option: keyof QuotaLimits): string {
  return ` The server's limit: a backend serving many users as one principal can raise limits.${option} in createGloveServer({ limits }), or set it to Infinity to turn it off (or authenticate each user as their own principal).`;
}

/** How long a client told it has too many conversations should wait before trying again (s). */
const CONVERSATIONS_RETRY_S = 60;

/**
 * What one principal may use: conversations kept and created per minute, turns running at once
 * and started per minute. Refusals are 429s with `retry-after`. The stored-conversation count
 * comes from the catalog (shared by every instance of the scale mode); rates and running turns
 * are counted in memory, so per process, as the relay's limits are.
 */
export class PrincipalQuotas {
  readonly #creations: RateLimiter | undefined;
  readonly #turns: RateLimiter | undefined;
  readonly #running: ConcurrencyLimiter | undefined;

  constructor(private readonly limits: QuotaLimits) {
    this.#creations = bounded(limits.conversationsPerMinute)
      ? new RateLimiter(limits.conversationsPerMinute)
      : undefined;
    this.#turns = bounded(limits.turnsPerMinute) ? new RateLimiter(limits.turnsPerMinute) : undefined;
    this.#running = bounded(limits.concurrentTurnsPerPrincipal)
      ? new ConcurrencyLimiter(limits.concurrentTurnsPerPrincipal)
      : undefined;
  }

  /** Before a conversation is created: the creation rate first (it costs no store read), then the count kept. */
  async admitConversation(owner: string, catalog: ConversationCatalog): Promise<void> {
    const rate = this.#creations?.take(owner);
    if (rate && !rate.allowed) {
      throw tooManyRequests(
        "GLOVE_RATE_LIMITED",
        rate.retryAfterSeconds,
        `Too many new conversations: at most ${this.limits.conversationsPerMinute} a minute (limits.conversationsPerMinute). Retry in ${rate.retryAfterSeconds} s.${raiseOrTurnOff("conversationsPerMinute")}`,
      );
    }
    const max = this.limits.conversationsPerPrincipal;
    if (!bounded(max)) return;
    // Concurrent creations can pass together; the creation rate bounds how far past the limit that goes.
    if ((await catalog.listByOwner(owner, max)).length >= max) {
      throw tooManyRequests(
        "GLOVE_TOO_MANY_CONVERSATIONS",
        CONVERSATIONS_RETRY_S,
        `You have ${max} conversations, the most this server keeps for one user (limits.conversationsPerPrincipal). Delete some (DELETE /conversations/:id), then create a new one.${raiseOrTurnOff("conversationsPerPrincipal")}`,
      );
    }
  }

  /**
   * Before a turn starts: a slot among the principal's running turns (a refusal there costs no
   * rate), then the turn rate. Returns the function that frees the slot once the turn has ended.
   */
  admitTurn(owner: string): () => void {
    const release = this.#running?.acquire(owner);
    if (this.#running && !release) {
      throw tooManyRequests(
        "GLOVE_TOO_MANY_TURNS",
        1,
        `You have ${this.limits.concurrentTurnsPerPrincipal} turns running or queued, the most at once (limits.concurrentTurnsPerPrincipal). Wait for one to end (turn_end) or abort one.${raiseOrTurnOff("concurrentTurnsPerPrincipal")}`,
      );
    }
    const free = release ?? (() => undefined);
    const rate = this.#turns?.take(owner);
    if (rate && !rate.allowed) {
      free();
      throw tooManyRequests(
        "GLOVE_RATE_LIMITED",
        rate.retryAfterSeconds,
        `Too many messages: at most ${this.limits.turnsPerMinute} turns a minute (limits.turnsPerMinute). Retry in ${rate.retryAfterSeconds} s.${raiseOrTurnOff("turnsPerMinute")}`,
      );
    }
    return free;
  }
}

function bounded(limit: number): boolean {
  return Number.isFinite(limit);
}
