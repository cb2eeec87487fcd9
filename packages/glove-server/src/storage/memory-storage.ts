import { MemoryStore, type StoreAdapter } from "glove-core";
import { MemoryInspector } from "./inspect/memory-inspector.js";
import type { TraceLimits } from "./inspect/trace-limits.js";
import type { ConversationCatalog, ConversationChanges, ConversationRecord, ServerStorage } from "./types.js";

/** A catalog in memory: for tests and throwaway servers (nothing survives a restart). */
export class MemoryCatalog implements ConversationCatalog {
  readonly #records = new Map<string, ConversationRecord>();

  async create(record: ConversationRecord): Promise<void> {
    this.#records.set(record.id, { ...record });
  }
  async get(id: string): Promise<ConversationRecord | undefined> {
    const record = this.#records.get(id);
    return record && { ...record };
  }
  async listByOwner(owner: string, limit: number): Promise<ConversationRecord[]> {
    return [...this.#records.values()]
      .filter((r) => r.owner === owner)
      .sort((a, b) => (a.updatedAt < b.updatedAt ? 1 : a.updatedAt > b.updatedAt ? -1 : 0))
      .slice(0, limit)
      .map((r) => ({ ...r }));
  }
  async update(id: string, changes: ConversationChanges): Promise<void> {
    const record = this.#records.get(id);
    if (!record) return;
    for (const [key, value] of Object.entries(changes)) {
      if (value !== undefined) (record as unknown as Record<string, unknown>)[key] = value;
    }
  }
  async delete(id: string): Promise<void> {
    this.#records.delete(id);
  }
  /** Copies of every record, in no particular order (storage inspection scans them). */
  records(): ConversationRecord[] {
    return [...this.#records.values()].map((r) => ({ ...r }));
  }
}

/** Options of `memoryStorage`. */
export interface MemoryStorageOptions {
  /** How much turn timing to keep (see TraceLimits). */
  traces?: Partial<TraceLimits>;
}

/** Conversations in memory (MemoryStore per conversation); nothing survives a restart. */
export function memoryStorage(options: MemoryStorageOptions = {}): ServerStorage {
  const stores = new Map<string, StoreAdapter>();
  const catalog = new MemoryCatalog();
  const inspect = new MemoryInspector(
    { records: () => catalog.records(), existingStore: (id) => stores.get(id) },
    options.traces,
  );
  return {
    catalog,
    inspect,
    store(conversationId) {
      let store = stores.get(conversationId);
      if (!store) stores.set(conversationId, (store = new MemoryStore(conversationId)));
      return store;
    },
    delete: async (conversationId) => {
      stores.delete(conversationId);
      inspect.traces.delete(conversationId);
    },
  };
}
