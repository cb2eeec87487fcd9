import type { Principal } from "../security/authenticate.js";
import type { ConversationRecord } from "../storage/types.js";
import type { ConversationHosting } from "./conversation-handle.js";
import { LiveConversation, type ConversationDeps } from "./live-conversation.js";

/**
 * The conversations held in memory: opened on demand (one Glove each), dropped when idle for
 * `idleTimeoutMs` or when more than `maxLiveConversations` are open, so memory stays bounded
 * however many conversations exist.
 */
export class ConversationHost implements ConversationHosting {
  readonly #live = new Map<string, Promise<LiveConversation>>();
  readonly #sweeper: ReturnType<typeof setInterval>;
  #closed = false;

  constructor(private readonly deps: ConversationDeps) {
    const every = Math.max(50, Math.min(deps.options.idleTimeoutMs / 2, 30_000));
    this.#sweeper = setInterval(() => void this.sweep(), every);
    this.#sweeper.unref?.();
  }

  /** How many conversations are in memory. */
  get size(): number {
    return this.#live.size;
  }

  /** The live conversation, opened from the store when not in memory. */
  open(record: ConversationRecord, principal: Principal): Promise<LiveConversation> {
    let pending = this.#live.get(record.id);
    if (!pending) {
      pending = LiveConversation.open(record, principal, this.deps);
      this.#live.set(record.id, pending);
      pending.catch(() => this.#live.delete(record.id));
      if (this.#live.size > this.deps.options.maxLiveConversations) void this.#evictLeastRecent();
    }
    return pending.then((conversation) => {
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
   */
  async sweep(now = Date.now()): Promise<void> {
    const cutoff = now - this.deps.options.idleTimeoutMs;
    for (const [id, pending] of this.#live) {
      const conversation = await pending.catch(() => undefined);
      if (!conversation || conversation.lastActive > cutoff || conversation.subscribers > 0) continue;
      if (conversation.idle || (await conversation.suspendIfWaiting())) await this.#drop(id, conversation);
    }
  }

  /**
   * Removes a conversation from memory, ending its streams; a running turn is aborted as
   * interrupted, unless it only waits for people: then it is left waiting in the store.
   */
  async forget(id: string): Promise<void> {
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
    let excess = this.#live.size - this.deps.options.maxLiveConversations;
    for (const [id, conversation] of idle) {
      if (excess-- <= 0) break;
      await this.#drop(id, conversation);
    }
  }

  async #drop(id: string, conversation: LiveConversation): Promise<void> {
    if (this.#live.get(id) === undefined) return;
    this.#live.delete(id);
    await conversation.close();
  }
}
