import type { ConversationHosting } from "../../conversations/conversation-handle.js";
import type { ConversationRecord } from "../../storage/types.js";
import { allKeys } from "./keys.js";
import type { ScaleShared } from "./scale-shared.js";
import { ScaledConversation } from "./scaled-conversation.js";

/**
 * The conversations one instance of the scale mode serves (followed streams, snapshots), opened on
 * demand and dropped when no stream reads them for `idleTimeoutMs`. Turns are not tied to them:
 * they run wherever their job is.
 */
export class ScaledHost implements ConversationHosting {
  readonly #live = new Map<string, Promise<ScaledConversation>>();
  readonly #sweeper: ReturnType<typeof setInterval>;

  constructor(private readonly shared: ScaleShared) {
    const every = Math.max(50, Math.min(shared.options.idleTimeoutMs / 2, 30_000));
    this.#sweeper = setInterval(() => void this.#sweep(), every);
    this.#sweeper.unref?.();
  }

  get size(): number {
    return this.#live.size;
  }

  open(record: ConversationRecord): Promise<ScaledConversation> {
    let pending = this.#live.get(record.id);
    if (!pending) {
      pending = ScaledConversation.open(record, this.shared);
      this.#live.set(record.id, pending);
      pending.catch(() => this.#live.delete(record.id));
    }
    return pending.then((conversation) => {
      conversation.lastActive = Date.now();
      return conversation;
    });
  }

  /** DELETE: the running turn (wherever it runs) is aborted, local readers end, the Redis keys go. */
  async forget(id: string): Promise<void> {
    const conversation = await this.#live.get(id)?.catch(() => undefined);
    const keys = this.shared.keys(id);
    if (await this.shared.redis.get(keys.turn)) {
      await this.shared.control.request(keys.control, keys.run, { op: "abort" }, 3000).catch(() => undefined);
    }
    await this.shared.redis.del(...allKeys(keys));
    if (conversation) await this.#drop(id, conversation);
  }

  async closeAll(): Promise<void> {
    clearInterval(this.#sweeper);
    for (const [id, pending] of [...this.#live]) {
      const conversation = await pending.catch(() => undefined);
      if (conversation) await this.#drop(id, conversation);
    }
  }

  async #sweep(): Promise<void> {
    const cutoff = Date.now() - this.shared.options.idleTimeoutMs;
    for (const [id, pending] of [...this.#live]) {
      const conversation = await pending.catch(() => undefined);
      if (conversation && conversation.subscribers === 0 && conversation.lastActive <= cutoff)
        await this.#drop(id, conversation);
    }
    const max = this.shared.options.maxLiveConversations;
    if (this.#live.size <= max) return;
    const settled = await Promise.all(
      [...this.#live].map(async ([id, p]) => [id, await p.catch(() => undefined)] as const),
    );
    const idle = settled.filter(
      (e): e is readonly [string, ScaledConversation] => e[1] !== undefined && e[1].subscribers === 0,
    );
    idle.sort((a, b) => a[1].lastActive - b[1].lastActive);
    for (const [id, conversation] of idle.slice(0, this.#live.size - max)) await this.#drop(id, conversation);
  }

  async #drop(id: string, conversation: ScaledConversation): Promise<void> {
    if (this.#live.get(id) === undefined) return;
    this.#live.delete(id);
    await conversation.close();
  }
}
