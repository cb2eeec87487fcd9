import fc from "fast-check";
import type { StoreAdapter } from "glove-core";
import type { ServerStorage } from "../../../src/index.js";

const DAY = 86_400_000;
export const NOW = Date.parse("2026-06-01T12:00:00.000Z");
const ago = (days: number) => new Date(NOW - days * DAY).toISOString();

/** One conversation as the generator describes it. */
export interface ConversationSpec {
  owner: string;
  agent: string;
  /** Days since its last activity (fractions: hours). */
  idleDays: number;
  running: boolean;
  pendingQuestion: boolean;
  inMemory: boolean;
  /** Settled questions and recorded steps, by days since they settled. */
  settled: Array<{ kind: "question" | "step"; days: number }>;
  branches: number;
  /** Traces by days since their turn started. */
  traces: number[];
  /** A sub-agent store, with a pending question of its own when "pending". */
  subagent: "none" | "settled" | "pending";
}

const days = fc.oneof(fc.double({ min: 0, max: 0.02, noNaN: true }), fc.integer({ min: 0, max: 200 }));

export const conversationSpec: fc.Arbitrary<ConversationSpec> = fc.record({
  owner: fc.constantFrom("alice", "bob", "carol"),
  agent: fc.constantFrom("short", "long"),
  idleDays: days,
  running: fc.boolean(),
  pendingQuestion: fc.boolean(),
  inMemory: fc.boolean(),
  settled: fc.array(
    fc.record({ kind: fc.constantFrom("question" as const, "step" as const), days: fc.integer({ min: 0, max: 20 }) }),
    { maxLength: 3 },
  ),
  branches: fc.integer({ min: 0, max: 3 }),
  traces: fc.array(fc.integer({ min: 0, max: 40 }), { maxLength: 3 }),
  subagent: fc.constantFrom("none" as const, "settled" as const, "pending" as const),
});

/** A conversation as built: its id and spec. */
export interface Built {
  id: string;
  spec: ConversationSpec;
}

let counter = 0;
const uuid = () => {
  const hex = (counter++).toString(16).padStart(12, "0");
  return `00000000-0000-4000-8000-${hex}`;
};

const text = (id: string, sender: "user" | "agent", t: string) => ({ id, sender, text: t });

/** Writes the conversations through the storage's own catalog, stores and trace store. */
export async function buildWorld(storage: ServerStorage, specs: ConversationSpec[]): Promise<Built[]> {
  const built: Built[] = [];
  for (const spec of specs) {
    const id = uuid();
    const updatedAt = ago(spec.idleDays);
    await storage.catalog.create({
      id,
      owner: spec.owner,
      agent: spec.agent,
      title: null,
      createdAt: ago(spec.idleDays + 1),
      updatedAt,
      eventIdsReserved: 0,
      runningTurnId: spec.running ? `turn-running-${id}` : null,
      lastClientMessageId: null,
      lastTurnId: null,
    });
    const store = await storage.store(id);
    await store.appendMessages([text(`m1-${id}`, "user", "hello"), text(`m2-${id}`, "agent", "hi")]);
    await store.addTasks?.([{ id: `t-${id}`, content: "a task", activeForm: "doing a task", status: "pending" }]);
    await store.setPermission?.("a_tool", "granted");
    for (const [i, wait] of spec.settled.entries()) {
      await addWait(store, `w${i}-${id}`, wait.kind);
      await store.settleWait!(`w${i}-${id}`, { status: "resolved", value: i, settled_at: ago(wait.days) });
    }
    if (spec.pendingQuestion) await addWait(store, `pending-${id}`, "question");
    for (let i = 0; i < spec.branches; i++) {
      const count = (await store.getMessages()).length;
      const last = (await store.getMessages()).at(-1)!;
      await store.rewriteBranches!({
        expected: { count, lastId: last.id ?? null },
        keep: count,
        remove: [],
        add: [
          { id: `b${i}-${id}`, at: 1, parentId: `m1-${id}`, messages: [text(`alt${i}-${id}`, "agent", `alt ${i}`)] },
        ],
        append: [],
      });
    }
    for (const [i, d] of spec.traces.entries()) await saveTrace(storage, id, `turn-${i}`, ago(d));
    if (spec.running) await saveTrace(storage, id, `turn-running-${id}`, ago(100));
    if (spec.subagent !== "none") {
      const child = await store.createSubAgentStore!("helper", { durable: true });
      await child.appendMessages([text(`c1-${id}`, "user", "sub")]);
      await addWait(child, `sub-${id}`, "question");
      if (spec.subagent === "settled")
        await child.settleWait!(`sub-${id}`, { status: "resolved", value: 1, settled_at: ago(30) });
    }
    built.push({ id, spec });
  }
  return built;
}

async function addWait(store: StoreAdapter, id: string, kind: "question" | "step"): Promise<void> {
  await store.addWait!({
    id,
    kind,
    toolCallId: `call-${id}`,
    toolName: "ask",
    position: 0,
    renderer: kind === "question" ? "ask" : "step",
    input: kind === "question" ? { q: "?" } : null,
    status: "pending",
    created_at: ago(60),
    settled_at: null,
  });
}

async function saveTrace(storage: ServerStorage, conversationId: string, turnId: string, startedAt: string) {
  await storage.inspect!.traces.save({
    conversationId,
    turnId,
    startedAt,
    endedAt: startedAt,
    status: "completed",
    spans: [],
    truncated: false,
  });
}

/** What a client can read of a conversation: catalog record, messages, waits, branches, tasks, traces. */
export async function readConversation(storage: ServerStorage, id: string) {
  const store = await storage.store(id);
  return {
    record: await storage.catalog.get(id),
    messages: await store.getMessages(),
    waits: (await store.getWaits?.()) ?? [],
    branches: (await store.getBranches?.()) ?? [],
    tasks: (await store.getTasks?.()) ?? [],
    traces: (await storage.inspect!.traces.list(id, { limit: 100 })).map((t) => t.turnId),
  };
}
