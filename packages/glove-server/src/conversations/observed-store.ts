import type { BranchRewrite, BranchRewriteOutcome, Message, ModelCallRecord, StoreAdapter } from "glove-core";

export interface StoreObserver {
  /** Messages were persisted, starting at history index `startIndex`. */
  onMessagesAppended(messages: Message[], startIndex: number): void;
  onTasksChanged(): void;
  onInboxChanged(): void;
  /** The active branch was rewritten (decision 0025): the first `keep` messages stay, `appended` follow. */
  onBranchesChanged(keep: number, appended: Message[]): void | Promise<void>;
}

type Method = (...args: unknown[]) => unknown;

const TASK_WRITES = new Set(["addTasks", "updateTask", "replaceTasks"]);
const INBOX_WRITES = new Set(["addInboxItem", "updateInboxItem", "consumeInboxItem"]);

/**
 * The store as the conversation's Glove sees it: every call goes to the real store (optional
 * capabilities stay exactly as present or absent), and writes are reported once they are
 * persisted. `version` changes on every write, so a reader can tell whether what it read is
 * still current.
 */
export class ObservedStore {
  readonly store: StoreAdapter;
  #version = 0;
  #writing = 0;
  #messageCount: number | undefined;

  constructor(
    readonly inner: StoreAdapter,
    private readonly observer: StoreObserver,
  ) {
    // One wrapper per method, made on first use: the agent loop reads several methods per model
    // call, and a new bound function per read showed in a server's profile. A method replaced on
    // the store (an own property set later) gets a new wrapper.
    const wrappers = new Map<PropertyKey, { method: Method; wrapper: unknown }>();
    this.store = new Proxy(inner, {
      get: (target, key, receiver) => {
        const value: unknown = Reflect.get(target, key, receiver);
        if (typeof value !== "function") return value;
        const cached = wrappers.get(key);
        if (cached?.method === value) return cached.wrapper;
        const method = value as Method;
        const wrapper = this.#wrap(target, String(key), method);
        wrappers.set(key, { method, wrapper });
        return wrapper;
      },
    });
  }

  #wrap(target: StoreAdapter, name: string, value: Method): unknown {
    if (name === "appendMessages") return (msgs: Message[]) => this.#append(msgs);
    if (name === "recordModelCall") return (call: ModelCallRecord) => this.#recordModelCall(call);
    if (name === "rewriteBranches") return (change: BranchRewrite) => this.#rewrite(change);
    const write = (...args: unknown[]) => Promise.resolve(value.apply(target, args) as unknown);
    const { observer } = this;
    if (TASK_WRITES.has(name))
      return (...args: unknown[]) =>
        this.#write(
          () => write(...args),
          () => observer.onTasksChanged(),
        );
    if (INBOX_WRITES.has(name))
      return (...args: unknown[]) =>
        this.#write(
          () => write(...args),
          () => observer.onInboxChanged(),
        );
    return value.bind(target);
  }

  /** Changes whenever a write starts or ends. */
  get version(): number {
    return this.#version;
  }

  /** True while a write is in flight. */
  get writing(): boolean {
    return this.#writing > 0;
  }

  /** The history's length as this store knows it (undefined before it was set). */
  get messageCount(): number | undefined {
    return this.#messageCount;
  }

  /** Sets the history length the next append continues from (read once when the conversation opens). */
  setMessageCount(count: number): void {
    this.#messageCount = count;
  }

  async #append(messages: Message[]): Promise<void> {
    await this.#write(
      () => this.inner.appendMessages(messages),
      () => this.#appended(messages),
    );
  }

  /** A model call's one write (messages, tokens, turn): its messages are reported as an append's. */
  async #recordModelCall(call: ModelCallRecord): Promise<void> {
    await this.#write(
      () => this.inner.recordModelCall!(call),
      () => this.#appended(call.messages, { modelCall: true }),
    );
  }

  async #appended(messages: Message[], { modelCall = false } = {}): Promise<void> {
    // Stores may add a repair message before the batch (an interrupted tool call): re-count.
    const total = this.inner.messageCount ? await this.inner.messageCount() : undefined;
    const start = total !== undefined ? total - messages.length : (this.#messageCount ?? 0);
    if (total !== undefined && this.#messageCount !== undefined && total - messages.length > this.#messageCount) {
      const all = await this.inner.getMessages();
      const added = all.slice(this.#messageCount);
      this.#messageCount = all.length;
      this.observer.onMessagesAppended(added, all.length - added.length);
      return;
    }
    // A model call with no messages (an empty answer) appended nothing: nothing to report.
    if (modelCall && messages.length === 0) return;
    this.#messageCount = start + messages.length;
    this.observer.onMessagesAppended(messages, start);
  }

  #rewrite(change: BranchRewrite): Promise<BranchRewriteOutcome> {
    return this.#write(
      () => this.inner.rewriteBranches!(change),
      async ({ won }) => {
        if (!won) return;
        this.#messageCount = change.keep + change.append.length;
        // Reported before the caller goes on, so clients see the new branch before the turn that follows.
        await this.observer.onBranchesChanged(change.keep, change.append);
      },
    );
  }

  async #write<T>(run: () => Promise<T>, after: (result: T) => void | Promise<void>): Promise<T> {
    this.#writing++;
    this.#version++;
    try {
      const result = await run();
      await after(result);
      return result;
    } finally {
      this.#writing--;
      this.#version++;
    }
  }
}
