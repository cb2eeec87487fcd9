import { Runtime } from "glove-core";
import { ScriptedModel } from "glove-core/testing";
import { SqliteStore } from "glove-sqlite";

export interface MemorySample {
  conversations: number;
  heapMb: number;
  open: number;
}

export interface RunOptions {
  conversations: number;
  sampleEvery: number;
  /** Runtime's maxOpenConversations; undefined keeps every conversation in memory. */
  maxOpen: number | undefined;
}

const gc = (globalThis as { gc?: () => void }).gc;

function heapMb(): number {
  gc?.();
  gc?.();
  return process.memoryUsage().heapUsed / 1024 / 1024;
}

/**
 * Runs `conversations` conversations (one request each) through one Runtime on a shared SQLite
 * database, sampling the heap after a forced GC. With `maxOpen` set, the Runtime evicts idle
 * conversations and the heap stays flat; without it, every Glove stays in memory.
 */
export async function runtimeMemory(options: RunOptions): Promise<MemorySample[]> {
  // One in-memory database for every conversation (its handle comes from a first store).
  const owner = new SqliteStore({ dbPath: ":memory:", sessionId: "bench-owner" });
  const db = owner.db;
  const model = new ScriptedModel([], { record: false, fallback: { text: "Noted, thanks." } });
  const runtime = new Runtime({
    environment: false,
    maxOpenConversations: options.maxOpen,
    storeFactory: (_agent, id) => new SqliteStore({ database: db, sessionId: id }),
  });
  runtime.register("assistant", { systemPrompt: "You are brief.", model });
  const samples: MemorySample[] = [{ conversations: 0, heapMb: heapMb(), open: 0 }];
  for (let i = 1; i <= options.conversations; i++) {
    await runtime.processRequest("assistant", `conversation-${i}`, `Hello number ${i}`);
    if (i % options.sampleEvery === 0)
      samples.push({ conversations: i, heapMb: heapMb(), open: runtime.openConversations });
  }
  runtime.close();
  owner.close();
  return samples;
}
