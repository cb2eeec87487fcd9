import { MemoryStore, type StoreAdapter } from "glove-core";
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
}

/** Conversations in memory (MemoryStore per conversation); nothing survives a restart. */
export function memoryStorage(): ServerStorage {
  const stores = new Map<string, StoreAdapter>();
  return {
    catalog: new MemoryCatalog(),
    store(conversationId) {
      let store = stores.get(conversationId);
      if (!store) stores.set(conversationId, (store = new MemoryStore(conversationId)));
      return store;
    },
    delete: async (conversationId) => void stores.delete(conversationId),
  };
}
