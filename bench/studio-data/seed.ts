/**
 * The data the bench reads: `conversations` catalog rows (some running, failed or waiting on a
 * question) and one long conversation (`BIG_ID`, `messages` messages, full trace history), written
 * the way a glove-server writes them (its catalog table, glove-sqlite/glove-postgres stores).
 */
import type { Message } from "glove-core";
import type { ConversationRecord, ServerStorage, TraceSpan, TurnTrace } from "glove-server";

export const BIG_ID = "conv-big";
export const AGENTS = ["assistant", "researcher", "support", "planner"] as const;
const TOPICS = ["billing", "refunds", "onboarding", "outage", "pricing", "travel", "recipes"] as const;
const START = Date.UTC(2026, 0, 1);

/** Which conversations are what: every 1000th (from 1) runs, every 50th (from 2) failed, every 500th (from 3) waits. */
export const isRunning = (i: number) => i % 1000 === 1;
export const isFailed = (i: number) => i % 50 === 2;
export const isWaiting = (i: number) => i % 500 === 3;

/** Catalog row i (newer as i grows). */
export function seedRecord(i: number): ConversationRecord {
  const at = new Date(START + i * 1000).toISOString();
  return {
    id: `conv-${String(i).padStart(6, "0")}`,
    owner: `user-${i % 100}`,
    agent: AGENTS[i % AGENTS.length]!,
    title: `Conversation ${i} about ${TOPICS[i % TOPICS.length]}`,
    createdAt: at,
    updatedAt: at,
    eventIdsReserved: 0,
    runningTurnId: isRunning(i) ? `turn-${i}` : null,
    lastClientMessageId: null,
    lastTurnId: null,
    lastTurnStatus: isFailed(i) ? "error" : "done",
    stats: { turns: 2, tokens_in: i % 1000, tokens_out: i % 100 },
  };
}

/** Message i of the long conversation. */
export function bigMessage(i: number): Message {
  return { sender: i % 2 === 0 ? "user" : "agent", text: `Message ${i}: ${"lorem ipsum dolor sit amet ".repeat(6)}` };
}

/** Trace n of the long conversation: 30 spans (model and tool calls). */
export function bigTrace(n: number): TurnTrace {
  const startMs = START + n * 60_000;
  return {
    conversationId: BIG_ID,
    turnId: `turn-${String(n).padStart(4, "0")}`,
    startedAt: new Date(startMs).toISOString(),
    endedAt: new Date(startMs + 30_000).toISOString(),
    status: "completed",
    truncated: false,
    spans: Array.from({ length: 30 }, (_, s) => ({
      spanId: `${n}-${s}`,
      parentSpanId: null,
      name: s % 2 === 0 ? "chat bench-model" : "execute_tool lookup",
      kind: s % 2 === 0 ? ("model_call" as const) : ("tool_call" as const),
      startMs: startMs + s * 1000,
      durationMs: 900,
      status: "ok" as const,
      attributes: (s % 2 === 0
        ? { "gen_ai.usage.input_tokens": 1200, "gen_ai.usage.output_tokens": 80 }
        : { "gen_ai.tool.name": "lookup", "gen_ai.tool.call.id": `call-${n}-${s}` }) as TraceSpan["attributes"],
    })),
  };
}

/**
 * Writes the stores' side: the long conversation's messages (in batches), its traces, and a
 * pending question in each waiting conversation. The catalog rows are written by the caller (in
 * bulk, per database).
 */
export async function seedStores(
  storage: ServerStorage,
  conversations: number,
  messages: number,
  traces: number,
): Promise<void> {
  const big = await storage.store(BIG_ID);
  for (let from = 0; from < messages; from += 1000) {
    await big.appendMessages(Array.from({ length: Math.min(1000, messages - from) }, (_, k) => bigMessage(from + k)));
  }
  for (let n = 0; n < traces; n++) await storage.inspect!.traces.save(bigTrace(n));
  for (let i = 3; i < conversations; i += 500) {
    const store = await storage.store(seedRecord(i).id);
    const callId = `call-${i}`;
    await store.appendMessages([
      { sender: "user", text: "Book a table" },
      { sender: "agent", text: "", tool_calls: [{ id: callId, tool_name: "book", input_args: {} }] },
    ]);
    await store.addWait!({
      id: `q-${i}`,
      kind: "question",
      toolCallId: callId,
      toolName: "book",
      position: 0,
      renderer: "confirm",
      input: {},
      status: "pending",
      created_at: new Date(START).toISOString(),
      settled_at: null,
    });
    (store as { close?: () => unknown }).close?.();
  }
}

/** How many seeded conversations match agent `agent` and contain `text` in the title (the filtered query). */
export function expectedFiltered(conversations: number, agent: string, topic: string): number {
  let n = 0;
  for (let i = 0; i < conversations; i++) {
    const r = seedRecord(i);
    if (r.agent === agent && r.title!.includes(topic)) n++;
  }
  return n;
}
