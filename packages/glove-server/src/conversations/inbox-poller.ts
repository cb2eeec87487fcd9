import type { ResolvedServerOptions } from "../options.js";
import type { InboxFingerprints, ServerStorage } from "../storage/types.js";

/** Fingerprints asked for in one read. */
const FINGERPRINT_BATCH = 1000;

interface Watcher {
  /** Reads the inbox again and announces a change. */
  refresh: () => Promise<void>;
  /** Whether anyone needs the inbox now (an open stream, an agent that wakes on answers). */
  watched: () => boolean;
  /** The fingerprint the last refresh started from; undefined: refresh at the next tick. */
  seen: string | undefined;
  busy: boolean;
}

/**
 * Re-reads the inboxes of watched conversations every `pollMs`, so items resolved outside this
 * process reach open streams: one timer for all of them. Where the storage can fingerprint inboxes
 * (one query for every watched conversation), only the conversations whose fingerprint changed
 * read their inbox; otherwise each reads its own, as a timer per conversation would. An idle
 * watched conversation then costs a share of one query per period instead of a query of its own.
 */
export class InboxPoller {
  readonly #watchers = new Map<string, Watcher>();
  #timer: ReturnType<typeof setInterval> | undefined;
  #ticking = false;

  /** The poller of a server on `storage`, with the fingerprints it offers. */
  static for(storage: ServerStorage, options: Pick<ResolvedServerOptions, "inboxPollMs" | "log">): InboxPoller {
    return new InboxPoller(options.inboxPollMs, storage.inboxFingerprints?.bind(storage), options.log);
  }

  constructor(
    private readonly pollMs: number,
    private readonly fingerprints: InboxFingerprints | undefined,
    private readonly log: (message: string, error?: unknown) => void,
  ) {}

  /** Watches a conversation's inbox until the returned function is called. */
  watch(conversationId: string, refresh: () => Promise<void>, watched: () => boolean): () => void {
    const watcher: Watcher = { refresh, watched, seen: undefined, busy: false };
    this.#watchers.set(conversationId, watcher);
    if (!this.#timer) {
      this.#timer = setInterval(() => void this.tick(), this.pollMs);
      this.#timer.unref?.();
    }
    return () => {
      if (this.#watchers.get(conversationId) === watcher) this.#watchers.delete(conversationId);
      if (this.#watchers.size === 0) this.close();
    };
  }

  /** One period's work (the timer calls it; a tick still running makes the next one skip). */
  async tick(): Promise<void> {
    if (this.#ticking) return;
    this.#ticking = true;
    try {
      const due = [...this.#watchers].filter(([, watcher]) => watcher.watched());
      if (due.length === 0) return;
      const failures: unknown[] = [];
      if (!this.fingerprints) {
        await Promise.all(due.map(([, watcher]) => this.#refresh(watcher, undefined, failures)));
        this.#report(failures);
        return;
      }
      for (let i = 0; i < due.length; i += FINGERPRINT_BATCH) {
        const batch = due.slice(i, i + FINGERPRINT_BATCH);
        const prints = await this.fingerprints(batch.map(([id]) => id)).catch((error: unknown) => {
          this.log("[glove-server] could not fingerprint inboxes; reading each instead", error);
          return undefined;
        });
        // Without fingerprints this period, every watched inbox is read (nothing is missed).
        await Promise.all(
          batch.map(([id, watcher]) => {
            const print = prints ? (prints.get(id) ?? "") : undefined;
            return print !== undefined && print === watcher.seen ? undefined : this.#refresh(watcher, print, failures);
          }),
        );
      }
      this.#report(failures);
    } finally {
      this.#ticking = false;
    }
  }

  close(): void {
    if (this.#timer) clearInterval(this.#timer);
    this.#timer = undefined;
  }

  async #refresh(watcher: Watcher, print: string | undefined, failures: unknown[]): Promise<void> {
    if (watcher.busy) return;
    watcher.busy = true;
    try {
      await watcher.refresh();
      // Only after a read that started at (or after) this fingerprint: a failed read is retried.
      watcher.seen = print;
    } catch (error) {
      failures.push(error);
    } finally {
      watcher.busy = false;
    }
  }

  /** One line per period however many reads failed (storage away fails them all). */
  #report(failures: unknown[]): void {
    if (failures.length === 0) return;
    this.log(
      `[glove-server] could not re-read ${failures.length === 1 ? "a conversation's inbox" : `${failures.length} conversations' inboxes`}; trying again next period`,
      failures[0],
    );
  }
}
