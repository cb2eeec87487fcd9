import { z } from "zod";
import { Displaymanager, Glove, type PromptRequest, type StoreAdapter } from "glove-core";
import { ScriptedModel, type ScriptedTurn } from "glove-core/testing";
import { createGloveServer, sqliteStorage, type GloveServer } from "glove-server";
import { SqliteStore } from "glove-sqlite";

/**
 * "idle": each conversation's turn answers with text and ends; "waiting": it asks a question and
 * waits, and the server lets it go as "waiting"; "waiting-in-memory": the same, on a server that
 * keeps every conversation in memory (what a waiting turn cost before it could leave).
 */
export type ConversationKind = "idle" | "waiting" | "waiting-in-memory";

export interface WaitingMemoryOptions {
  conversations: number;
  kind: ConversationKind;
  /** Conversations started before the server is given time to let the earlier ones go. Default 100. */
  batch?: number;
  /**
   * Conversations of the same kind run before the baseline. Default 1 000: V8 compiles the hot
   * paths (optimized code counts as heap, about 1 MB in all) over the first few hundred; after
   * that the heap grows only by what the server keeps per conversation.
   */
  warmUp?: number;
  /** How long the conversations may take to leave memory (or store their questions). Default 120 000 ms. */
  settleTimeoutMs?: number;
}

export interface WaitingMemoryResult {
  kind: ConversationKind;
  conversations: number;
  /** Heap after a forced GC, with the server started and warmed up (the same kind, evicted). */
  baselineBytes: number;
  /** Heap after a forced GC once every conversation has left memory. */
  afterBytes: number;
  /** (after − baseline) / conversations. */
  bytesPerConversation: number;
  /** Conversations in memory when measured (0: every one left; the warm-up's too when kept). */
  live: number;
  /** Questions stored and still pending in the database (waiting: one per conversation). */
  pendingQuestions: number;
}

const USER = "bench";

function gcHeap(): number {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) throw new Error("Run with --expose-gc (node --expose-gc, or the bench's test sets it up).");
  for (let i = 0; i < 3; i++) gc();
  return process.memoryUsage().heapUsed;
}

/** The bench's agent: one question (a form for the guest's name) or a plain answer. */
function agent(kind: ConversationKind) {
  const turn = (request: PromptRequest): ScriptedTurn => {
    if (!asks(kind) || request.messages.at(-1)?.tool_results?.length) return { text: "Noted, thanks." };
    return { toolCalls: [{ name: "ask_name", input: { question: "Who is the table for?" } }] };
  };
  return ({ store }: { store: StoreAdapter }) =>
    new Glove({
      store,
      model: new ScriptedModel([], { record: false, fallback: turn }),
      displayManager: new Displaymanager(),
      systemPrompt: "You book tables.",
      compaction_config: { compaction_instructions: "Summarise." },
    }).fold({
      name: "ask_name",
      description: "Asks the guest's name and waits for the answer.",
      inputSchema: z.object({ question: z.string() }),
      resolveSchema: z.object({ name: z.string().min(1) }),
      do: async (input, display) => display.pushAndWait({ input }),
    });
}

const asks = (kind: ConversationKind) => kind !== "idle";

async function call(server: GloveServer, path: string, body: unknown): Promise<{ id?: string }> {
  const response = await server.fetch(
    new Request(`http://127.0.0.1${path}`, {
      method: "POST",
      headers: { authorization: `Bearer ${USER}`, "content-type": "application/json" },
      body: JSON.stringify(body),
    }),
  );
  if (response.status >= 300) throw new Error(`POST ${path}: ${response.status} ${await response.text()}`);
  return (await response.json()) as { id?: string };
}

/**
 * Starts `count` conversations of `kind`, `batch` at a time; after each batch, waits until
 * `settled(started so far)` says the server is done with them (they left memory, or their
 * questions are stored).
 */
async function fill(
  server: GloveServer,
  kind: ConversationKind,
  count: number,
  batch: number,
  settled: (started: number) => boolean,
  timeoutMs: number,
): Promise<void> {
  for (let started = 0; started < count;) {
    const size = Math.min(batch, count - started);
    await Promise.all(
      Array.from({ length: size }, async (_, i) => {
        const { id } = await call(server, "/conversations", {});
        await call(server, `/conversations/${id}/messages`, { text: `Book table ${started + i} (${kind})` });
      }),
    );
    started += size;
    for (
      const giveUpAt = Date.now() + timeoutMs;
      !settled(started);
      await new Promise((resolve) => setTimeout(resolve, 10))
    ) {
      if (Date.now() > giveUpAt)
        throw new Error(
          `${kind}: after ${started} conversations the server still holds ${server.liveConversations} in memory.`,
        );
    }
  }
}

/**
 * Heap per conversation on one glove-server over SQLite (an in-memory database: its pages are
 * native memory, so the V8 heap holds only what the server itself keeps): `conversations`
 * conversations of `kind` are started over the fetch handler, each leaves memory (idle eviction;
 * a waiting turn ends as "waiting"), and the heap after a forced GC is compared with the heap of
 * the same server before them.
 */
export async function waitingMemory(options: WaitingMemoryOptions): Promise<WaitingMemoryResult> {
  const { conversations, kind } = options;
  const batch = options.batch ?? 100;
  const warmUp = options.warmUp ?? 1000;
  const owner = new SqliteStore({ dbPath: ":memory:", sessionId: "bench-owner" });
  const countPending = owner.db.prepare("SELECT count(*) AS pending FROM glove_waits WHERE status = 'pending'");
  const pending = () => (countPending.get() as { pending: number }).pending;
  const server = createGloveServer({
    agents: { assistant: agent(kind) },
    authenticate: (request) => (request.headers.get("authorization") === `Bearer ${USER}` ? { id: USER } : null),
    store: sqliteStorage({ database: owner.db }),
    // Idle (or only waiting) conversations leave memory at the next sweep; kept ones never do.
    idleTimeoutMs: kind === "waiting-in-memory" ? 3_600_000 : 1,
    maxLiveConversations: 1_000_000,
    events: { heartbeatMs: 3_600_000 },
    limits: {
      conversationsPerPrincipal: Infinity,
      conversationsPerMinute: Infinity,
      concurrentTurnsPerPrincipal: Infinity,
      turnsPerMinute: Infinity,
    },
  });
  let asked = 0;
  const run = async (count: number) => {
    const before = asked;
    const settled = (started: number) =>
      kind === "waiting-in-memory" ? pending() === before + started : server.liveConversations === 0;
    await fill(server, kind, count, batch, settled, options.settleTimeoutMs ?? 120_000);
    asked += asks(kind) ? count : 0;
  };
  try {
    await run(warmUp);
    const baselineBytes = gcHeap();
    await run(conversations);
    const afterBytes = gcHeap();
    return {
      kind,
      conversations,
      baselineBytes,
      afterBytes,
      bytesPerConversation: (afterBytes - baselineBytes) / conversations,
      live: server.liveConversations,
      pendingQuestions: pending() - (asks(kind) ? warmUp : 0),
    };
  } finally {
    await server.close();
    owner.close();
  }
}
