import type { ContextControls, Message, StoreAdapter, Task, TokenConsumptionCounter } from "../types/index.js";
import { newMessageId } from "../branches/message-ids.js";
import { ConfigurationError } from "../errors.js";

/** The messages from the last compaction summary onward (all of them when there is none). */
export function splitAtLastCompaction(messages: Message[]): Message[] {
  for (let i = messages.length - 1; i >= 0; i--) {
    if (messages[i]?.is_compaction) return messages.slice(i);
  }
  return messages;
}

/**
 * Reads and writes the conversation through a store, and keeps the model's
 * view (history since the last compaction) in memory so the agent loop never
 * reloads or rescans the whole history on each model call.
 *
 * The cached view is trusted only while the store's `messageCount()` matches
 * what this Context has seen (and, for a store with branches, its last message is
 * the same one); stores without it are re-read on every call, which is always
 * correct (another process may have appended or switched branches).
 */
export class Context implements ContextControls {
  private view: Message[] | undefined;
  private seenCount = -1;

  constructor(readonly store: StoreAdapter) {}

  /** The messages the model should see: from the last compaction onward. */
  async getMessages(): Promise<Message[]> {
    return (await this.modelView()).slice();
  }

  /** Internal, non-copying access to the model view for the agent loop. Do not mutate. */
  async modelView(): Promise<readonly Message[]> {
    if (this.view && this.store.messageCount && (await this.unchanged(this.view))) return this.view;
    const loaded = this.store.getMessagesSinceLastCompaction
      ? await this.store.getMessagesSinceLastCompaction()
      : splitAtLastCompaction(await this.store.getMessages());
    this.view = loaded;
    this.seenCount = this.store.messageCount ? await this.store.messageCount() : -1;
    return this.view;
  }

  /**
   * Whether the store still holds the history this view was read from. With branches, another
   * writer may have switched to a branch of the same length: the last message's id tells, since a
   * message's place in the tree never changes (decision 0025). One read either way.
   */
  private async unchanged(view: readonly Message[]): Promise<boolean> {
    const { store } = this;
    if (store.getBranches && store.getMessagePage && this.seenCount > 0) {
      const page = await store.getMessagePage(this.seenCount - 1, 1);
      return page.total === this.seenCount && page.messages[0]?.id === view.at(-1)?.id;
    }
    return (await store.messageCount!()) === this.seenCount;
  }

  async appendMessages(msgs: Message[]): Promise<void> {
    if (msgs.length === 0) return;
    // Every message gets a stable id: branches are built and switched by message id (decision 0025).
    for (const msg of msgs) msg.id ??= newMessageId();
    await this.store.appendMessages(msgs);
    this.#appended(msgs);
  }

  /**
   * A model call's messages, tokens and turn in the store's one write (`recordModelCall`, which
   * the caller has checked is present); the view follows as after `appendMessages`.
   */
  async recordModelCall(msgs: Message[], tokens: TokenConsumptionCounter): Promise<void> {
    for (const msg of msgs) msg.id ??= newMessageId();
    await this.store.recordModelCall!({ messages: msgs, tokens });
    this.#appended(msgs);
  }

  #appended(msgs: Message[]): void {
    if (!this.view) return;
    for (const msg of msgs) {
      if (msg.is_compaction) this.view = [msg];
      else this.view.push(msg);
    }
    if (this.seenCount >= 0) this.seenCount += msgs.length;
  }

  /** Forgets the cached view; the next read goes to the store. */
  invalidate(): void {
    this.view = undefined;
    this.seenCount = -1;
  }

  async getTasks(): Promise<Task[]> {
    return this.requireTasks("getTasks").getTasks();
  }

  async addTasks(tasks: Task[]): Promise<void> {
    return this.requireTasks("addTasks").addTasks(tasks);
  }

  async updateTask(taskId: string, updates: Partial<Task>): Promise<void> {
    return this.requireTasks("updateTask").updateTask(taskId, updates);
  }

  private requireTasks(method: string): Required<Pick<StoreAdapter, "getTasks" | "addTasks" | "updateTask">> {
    const { store } = this;
    if (!store.getTasks || !store.addTasks || !store.updateTask) {
      throw new ConfigurationError(
        `Context.${method}() needs a store with task support; store "${store.identifier}" does not implement getTasks/addTasks/updateTask.`,
      );
    }
    return store as Required<Pick<StoreAdapter, "getTasks" | "addTasks" | "updateTask">>;
  }
}
