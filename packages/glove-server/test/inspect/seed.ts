import type { Message, StoredWait } from "glove-core";
import type { ConversationRecord, ServerStorage } from "glove-server";

/** A catalog record with everything the listing reads; `n` orders them (higher is newer). */
export function record(n: number, overrides: Partial<ConversationRecord> = {}): ConversationRecord {
  const at = new Date(Date.UTC(2026, 0, 1) + n * 60_000).toISOString();
  return {
    id: `conv-${String(n).padStart(5, "0")}`,
    owner: n % 2 === 0 ? "alice" : "bob",
    agent: n % 3 === 0 ? "researcher" : "assistant",
    title: `Chat number ${n}`,
    createdAt: at,
    updatedAt: at,
    eventIdsReserved: 0,
    runningTurnId: null,
    lastClientMessageId: null,
    lastTurnId: null,
    lastTurnStatus: null,
    stats: { turns: n % 4, tokens_in: n * 10, tokens_out: n },
    ...overrides,
  };
}

/** A question a tool call waits on (unanswered call in the history), pending unless told. */
export function question(id: string, overrides: Partial<StoredWait> = {}): StoredWait {
  return {
    id,
    kind: "question",
    toolCallId: `call-${id}`,
    toolName: "ask_age",
    position: 0,
    renderer: "ask_age",
    input: { question: "How old are you?" },
    status: "pending",
    created_at: "2026-01-02T03:04:05.678Z",
    settled_at: null,
    ...overrides,
  };
}

/** The messages of a turn whose tool call waits for `wait` (its call has no result yet). */
export function waitingHistory(wait: StoredWait): Message[] {
  return [
    { sender: "user", text: "Book a table" },
    {
      sender: "agent",
      text: "",
      tool_calls: [{ id: wait.toolCallId, tool_name: wait.toolName, input_args: { question: "How old are you?" } }],
    },
  ];
}

/** Records `count` conversations (record(i) for i < count) into the storage's catalog. */
export async function seedCatalog(storage: ServerStorage, records: ConversationRecord[]): Promise<void> {
  for (const r of records) await storage.catalog.create(r);
}

/** A conversation waiting on a stored question in its own store. */
export async function seedWaiting(
  storage: ServerStorage,
  conversationId: string,
  wait = question(`q-${conversationId}`),
): Promise<void> {
  const store = await storage.store(conversationId);
  await store.appendMessages(waitingHistory(wait));
  await store.addWait!(wait);
}
