import type { Principal } from "../security/authenticate.js";
import type { ConversationRecord } from "../storage/types.js";
import type { ConversationHosting } from "./conversation-handle.js";
import { LiveConversation, type ConversationDeps } from "./live-conversation.js";

/**
 * The conversations held in memory: opened on demand (one Glove each), dropped when idle for
 * `idleTimeoutMs` or when more than `maxLiveConversations` are open, so memory stays bounded
 * however many conversations exist. Before that, a conversation nobody reads hibernates once its
 * replay window (`events.replayWindowMs`) has passed: only its last-active time stays, and the
 * next request wakes it through the same path that reopens an evicted one (decision 0033).
 */
export class ConversationHost implements ConversationHosting {
  readonly #live = new Map<string, Promise<LiveConversation>>();
  /** Hibernating conversations: id → when last active (they count as live until idleTimeoutMs). */
  readonly #dormant = new Map<string, number>();
  readonly #sweeper: ReturnType<typeof setInterval>;
  #closed = false;

  constructor(private readonly deps: ConversationDeps) {
    const { idleTimeoutMs, replayWindowMs } = deps.options;
    const every = Math.max(50, Math.min(idleTimeoutMs / 2, replayWindowMs / 2, 30_000));
    this.#sweeper = setInterval(() => void this.sweep(), every);
    this.#sweeper.unref?.();
  }

  /** How many conversations are in memory, awake or hibernating. */
  get size(): number {
    return this.#live.size + this.#dormant.size;
  }

  /** How many of them hibernate (no Glove, no frames). */
  get hibernated(): number {
    return this.#dormant.size;
  }

  /**
   * The live conversation, opened from the store when not in memory or woken when hibernating.
   * Concurrent calls share one opening, so a conversation never gets two Gloves.
   */
  open(record: ConversationRecord, principal: Principal): Promise<LiveConversation> {
    let pending = this.#live.get(record.id);
    if (!pending) {
      this.#dormant.delete(record.id);
      pending = LiveConversation.open(record, principal, this.deps);
      this.#live.set(record.id, pending);
      const opening = pending;
      opening.catch(() => this.#live.get(record.id) === opening && this.#live.delete(record.id));
      if (this.size > this.deps.options.maxLiveConversations) void this.#evictLeastRecent();
    }
    const opened = pending;
    return opened.then((conversation) => {
      // The sweep put it to sleep between this call and now (and maybe another request woke it
      // since): hand out the awake one rather than the closed one.
      const current = this.#live.get(record.id);
      if (current !== opened && (current !== undefined || this.#dormant.has(record.id)))
        return this.open(record, principal);
      conversation.lastActive = Date.now();
      return conversation;
    });
  }

  /** The conversation if it is in memory (no store access). */
  peek(id: string): Promise<LiveConversation> | undefined {
    return this.#live.get(id);
  }

  /**
   * Drops idle conversations not used for `idleTimeoutMs`. A turn that only waits for people
   * (its questions are stored) counts as idle: it is left waiting and resumes from the store.
   * Conversations not used for `replayWindowMs` that hold nothing only in memory hibernate.
   */
  async sweep(now = Date.now()): Promise<void> {
    const cutoff = now - this.deps.options.idleTimeoutMs;
    const replayCutoff = now - this.deps.options.replayWindowMs;
    for (const [id, lastActive] of this.#dormant) if (lastActive <= cutoff) this.#dormant.delete(id);
    for (const [id, pending] of this.#live) {
      const conversation = await pending.catch(() => undefined);
      if (!conversation || conversation.subscribers > 0) continue;
      if (conversation.lastActive > cutoff) {
        if (conversation.lastActive <= replayCutoff && conversation.hibernatable)
          await this.#hibernate(id, conversation);
        continue;
      }
      if (conversation.idle || (await conversation.suspendIfWaiting())) await this.#drop(id, conversation);
    }
  }

  /**
   * Removes a conversation from memory, ending its streams; a running turn is aborted as
   * interrupted, unless it only waits for people: then it is left waiting in the store.
   */
  async forget(id: string): Promise<void> {
    this.#dormant.delete(id);
    const conversation = await this.#live.get(id)?.catch(() => undefined);
    if (!conversation) return;
    if (!(await conversation.suspendIfWaiting())) await conversation.turns.abort("interrupted");
    await this.#drop(id, conversation);
  }

  /** Ends every running turn as interrupted (history stays valid) and drops everything. */
  async closeAll(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    clearInterval(this.#sweeper);
    this.#dormant.clear();
    const all = [...this.#live.keys()];
    await Promise.all(all.map((id) => this.forget(id)));
  }

  async #evictLeastRecent(): Promise<void> {
    const settled = await Promise.all(
      [...this.#live.entries()].map(async ([id, p]) => [id, await p.catch(() => undefined)] as const),
    );
    const idle = settled
      .filter((entry): entry is readonly [string, LiveConversation] => entry[1] !== undefined && entry[1].idle)
      .sort((a, b) => a[1].lastActive - b[1].lastActive);
    let excess = this.size - this.deps.options.maxLiveConversations;
    // Hibernating ones first (least recently used first: a Map keeps insertion order, close enough).
    for (const id of this.#dormant.keys()) {
      if (excess <= 0) return;
      this.#dormant.delete(id);
      excess--;
    }
    for (const [id, conversation] of idle) {
      if (excess-- <= 0) break;
      await this.#drop(id, conversation);
    }
  }

  /** Releases the Glove and the frames; the next `open` rebuilds them from the store. */
  async #hibernate(id: string, conversation: LiveConversation): Promise<void> {
    if (this.#live.get(id) === undefined) return;
    this.#live.delete(id);
    this.#dormant.set(id, conversation.lastActive);
    await conversation.close();
  }

  async #drop(id: string, conversation: LiveConversation): Promise<void> {
    if (this.#live.get(id) === undefined) return;
    this.#live.delete(id);
    await conversation.close();
  }
}
