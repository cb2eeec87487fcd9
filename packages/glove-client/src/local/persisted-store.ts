import {
  MemoryStore,
  type BranchRewrite,
  type BranchRewriteOutcome,
  type InboxItem,
  type InboxItemUpdate,
  type Message,
  type PermissionStatus,
  type StoredBranch,
  type Task,
  type TokenConsumptionCounter,
} from "glove-core";

/** The part of the Web Storage API the persisted store uses (localStorage, sessionStorage, a fake). */
export interface KeyValueStorage {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
}

interface SavedSession {
  version: 1;
  messages: Message[];
  /** The stretches set aside by regenerate, edit and switch (absent in sessions saved before them). */
  branches?: StoredBranch[];
  tasks: Task[];
  inbox: InboxItem[];
  permissions: Record<string, PermissionStatus>;
  tokens: number;
  turns: number;
}

export const DEFAULT_STORAGE_PREFIX = "glove:";

/** The storage key of a session's saved state. */
export function sessionKey(prefix: string, sessionId: string): string {
  return `${prefix}session:${sessionId}`;
}

/**
 * A MemoryStore whose whole state is written to Web Storage after every change, so a local-mode
 * conversation survives a reload (`persistSession`). Fine for the size of a chat; a long-lived
 * app with large histories should bring a real store (e.g. a remote one) instead.
 */
export class PersistedStore extends MemoryStore {
  readonly #storage: KeyValueStorage;
  readonly #key: string;
  #permissions: Record<string, PermissionStatus> = {};
  #seeding = false;
  #warned = false;

  private constructor(sessionId: string, storage: KeyValueStorage, prefix: string) {
    super(sessionId);
    this.#storage = storage;
    this.#key = sessionKey(prefix, sessionId);
  }

  /** Opens the session's saved state (or an empty one). Touches storage: call it from an effect. */
  static async open(
    sessionId: string,
    storage: KeyValueStorage,
    prefix = DEFAULT_STORAGE_PREFIX,
  ): Promise<PersistedStore> {
    const store = new PersistedStore(sessionId, storage, prefix);
    const saved = store.#read();
    if (saved) await store.#seed(saved);
    return store;
  }

  override async appendMessages(msgs: Message[]): Promise<void> {
    await super.appendMessages(msgs);
    await this.#save();
  }
  override async rewriteBranches(change: BranchRewrite): Promise<BranchRewriteOutcome> {
    const outcome = await super.rewriteBranches(change);
    if (outcome.won) await this.#save();
    return outcome;
  }
  override async addTokens(args: TokenConsumptionCounter): Promise<void> {
    await super.addTokens(args);
    await this.#save();
  }
  override async incrementTurn(): Promise<void> {
    await super.incrementTurn();
    await this.#save();
  }
  override async resetCounters(): Promise<void> {
    await super.resetCounters();
    await this.#save();
  }
  override async addTasks(tasks: Task[]): Promise<void> {
    await super.addTasks(tasks);
    await this.#save();
  }
  override async replaceTasks(tasks: Task[]): Promise<void> {
    await super.replaceTasks(tasks);
    await this.#save();
  }
  override async updateTask(taskId: string, updates: Partial<Task>): Promise<void> {
    await super.updateTask(taskId, updates);
    await this.#save();
  }
  override async setPermission(toolName: string, status: PermissionStatus): Promise<void> {
    await super.setPermission(toolName, status);
    this.#permissions = { ...this.#permissions, [toolName]: status };
    await this.#save();
  }
  override async addInboxItem(item: InboxItem): Promise<void> {
    await super.addInboxItem(item);
    await this.#save();
  }
  override async updateInboxItem(itemId: string, updates: InboxItemUpdate): Promise<void> {
    await super.updateInboxItem(itemId, updates);
    await this.#save();
  }
  override async consumeInboxItem(itemId: string): Promise<boolean> {
    const won = await super.consumeInboxItem(itemId);
    if (won) await this.#save();
    return won;
  }

  /** Forgets the saved state. */
  clear(): void {
    this.#storage.removeItem(this.#key);
  }

  #read(): SavedSession | undefined {
    try {
      const raw = this.#storage.getItem(this.#key);
      const parsed = raw ? (JSON.parse(raw) as Partial<SavedSession>) : undefined;
      return parsed?.version === 1 && Array.isArray(parsed.messages) ? (parsed as SavedSession) : undefined;
    } catch {
      // Unreadable (corrupt JSON, storage blocked): start empty rather than fail the page.
      return undefined;
    }
  }

  async #seed(saved: SavedSession): Promise<void> {
    this.#seeding = true;
    try {
      await super.appendMessages(saved.messages);
      if (saved.branches?.length) {
        // The saved stretches come back as they were: a rewrite that keeps every message and only adds them.
        const count = saved.messages.length;
        await super.rewriteBranches({
          expected: { count, lastId: saved.messages.at(-1)?.id ?? null },
          keep: count,
          remove: [],
          add: saved.branches,
          append: [],
        });
      }
      if (saved.tasks?.length) await super.addTasks(saved.tasks);
      for (const item of saved.inbox ?? []) await super.addInboxItem(item);
      for (const [name, status] of Object.entries(saved.permissions ?? {})) await this.setPermission(name, status);
      if (saved.tokens) await super.addTokens({ tokens_in: saved.tokens, tokens_out: 0 });
      for (let i = 0; i < (saved.turns ?? 0); i++) await super.incrementTurn();
    } finally {
      this.#seeding = false;
    }
  }

  async #save(): Promise<void> {
    if (this.#seeding) return;
    const saved: SavedSession = {
      version: 1,
      messages: await this.getMessages(),
      branches: await this.getBranches(),
      tasks: await this.getTasks(),
      inbox: await this.getInboxItems(),
      permissions: this.#permissions,
      tokens: await this.getTokenCount(),
      turns: await this.getTurnCount(),
    };
    try {
      this.#storage.setItem(this.#key, JSON.stringify(saved));
    } catch (error) {
      // Quota exceeded or storage disabled: the conversation goes on in memory.
      if (!this.#warned)
        console.warn("[glove-client] could not save the session to storage; it lives in memory only.", error);
      this.#warned = true;
    }
  }
}
