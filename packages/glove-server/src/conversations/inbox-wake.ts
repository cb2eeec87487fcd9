import type { IGloveRunnable, StoreAdapter } from "glove-core";
import type { TurnRunner } from "./turn-runner.js";

/**
 * Starts the turns that deliver a conversation's inbox answers when its agent opted in
 * (`inbox: { wake: true }`, docs/decisions/0024): whenever the inbox may hold a resolved answer —
 * an item changed (this process wrote it, or the poll saw another process's write), a turn ended,
 * the conversation opened — a delivery turn starts, or starts after the running turn. Which of
 * several servers over one store delivers is decided in the store (`consumeInboxItem`, the first
 * claim wins): the others run nothing and show no turn.
 */
export class InboxWake {
  #checking = false;
  #again = false;
  #stopped = false;

  constructor(
    private readonly glove: IGloveRunnable,
    private readonly store: StoreAdapter,
    private readonly turns: TurnRunner,
    private readonly log: (message: string, error: unknown) => void,
  ) {}

  /** True when the conversation's Glove wakes on inbox answers. */
  get enabled(): boolean {
    return (
      this.glove.wakesOnInbox === true &&
      typeof this.glove.deliverInbox === "function" &&
      typeof this.store.getResolvedInboxItems === "function"
    );
  }

  /** The inbox may hold a resolved answer: deliver it now, or once the running turn has ended. */
  poke(): void {
    if (!this.enabled || this.#stopped) return;
    this.#again = true;
    if (this.#checking) return;
    this.#checking = true;
    void this.#deliverWhileDue()
      .catch((error: unknown) => this.log("[glove-server] could not deliver inbox answers", error))
      .finally(() => (this.#checking = false));
  }

  /** No more deliveries (the conversation leaves memory). */
  stop(): void {
    this.#stopped = true;
  }

  async #deliverWhileDue(): Promise<void> {
    while (this.#again && !this.#stopped) {
      this.#again = false;
      const running = this.turns.running;
      if (running) {
        // Whatever that turn leaves resolved is looked at once it has ended.
        await this.turns.settled(running.id);
        this.#again = true;
        continue;
      }
      if ((await this.store.getResolvedInboxItems!()).length === 0 || this.#stopped) continue;
      const delivery = this.turns.startInboxDelivery();
      // A turn started in between: look again after it. After a delivery, answers resolved meanwhile.
      if (!delivery || (await delivery)) this.#again = true;
    }
  }
}
