import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openSqliteDatabase } from "glove-sqlite";
import { createGloveServer, sqliteStorage, type ServerStorage } from "glove-server";
import { Glove } from "glove-core";
import { ScriptedModel } from "glove-core/testing";

/**
 * Storage bytes per stored message after many turns, without and with retention, on one SQLite
 * file. BENCH_CONVERSATIONS (200) conversations of BENCH_TURNS (20) turns each, last active 0 … 119
 * days ago; each turn stores a user and an agent message (~300 characters each), a settled question,
 * a recorded step and a trace, and every 5th a regenerate (a branch set aside). Retention:
 * inactive 60 days, traces 14 days, settled waits 7 days, 3 branches. The last line is `RESULTS <json>`.
 */
const conversations = Number(process.env.BENCH_CONVERSATIONS ?? 200);
const turns = Number(process.env.BENCH_TURNS ?? 20);
const DAY = 86_400_000;
const filler = "Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor. ".repeat(4);

async function seed(storage: ServerStorage): Promise<number> {
  let messages = 0;
  for (let c = 0; c < conversations; c++) {
    const id = `00000000-0000-4000-8000-${c.toString(16).padStart(12, "0")}`;
    const lastActive = Date.now() - (c % 120) * DAY - 60_000;
    const at = (turn: number) => new Date(lastActive - (turns - 1 - turn) * DAY).toISOString();
    await storage.catalog.create({
      id,
      owner: `user-${c % 10}`,
      agent: "assistant",
      title: null,
      createdAt: at(0),
      updatedAt: at(turns - 1),
      eventIdsReserved: 0,
      runningTurnId: null,
      lastClientMessageId: null,
      lastTurnId: null,
    });
    const store = await storage.store(id);
    for (let t = 0; t < turns; t++) {
      const user = { id: `u${t}-${id}`, sender: "user" as const, text: `${t} ${filler}` };
      const agent = { id: `a${t}-${id}`, sender: "agent" as const, text: `${t} ${filler}` };
      await store.appendMessages([user, agent]);
      for (const [kind, wait] of [
        ["question", `q${t}`],
        ["step", `s${t}`],
      ] as const) {
        await store.addWait!({
          id: `${wait}-${id}`,
          kind,
          toolCallId: `call${t}-${id}`,
          toolName: "ask",
          position: kind === "question" ? 0 : 1,
          renderer: kind,
          input: kind === "question" ? { question: filler } : null,
          status: "pending",
          created_at: at(t),
          settled_at: null,
        });
        await store.settleWait!(`${wait}-${id}`, { status: "resolved", value: { answer: 42 }, settled_at: at(t) });
      }
      await storage.inspect!.traces.save({
        conversationId: id,
        turnId: `turn${t}`,
        startedAt: at(t),
        endedAt: at(t),
        status: "completed",
        truncated: false,
        spans: [],
      });
      if (t % 5 === 4) {
        const all = await store.getMessages();
        // A regenerate: the last agent message set aside, a new one in its place.
        await store.rewriteBranches!({
          expected: { count: all.length, lastId: agent.id },
          keep: all.length - 1,
          remove: [],
          add: [{ id: `b${t}-${id}`, at: all.length - 1, parentId: user.id, messages: [agent] }],
          append: [{ ...agent, id: `r${t}-${id}` }],
        });
      }
      messages += 2;
    }
  }
  return messages;
}

/** Bytes in use (pages not on the free list) and the file's size, and the messages stored. */
function measure(path: string): { usedBytes: number; fileBytes: number; messages: number } {
  const db = openSqliteDatabase(path, { driver: "auto" });
  const one = (sql: string) => Number(Object.values(db.prepare(sql).get() as Record<string, unknown>)[0]);
  const pageSize = one("PRAGMA page_size");
  const result = {
    usedBytes: (one("PRAGMA page_count") - one("PRAGMA freelist_count")) * pageSize,
    fileBytes: one("PRAGMA page_count") * pageSize,
    messages: one("SELECT COUNT(*) FROM glove_messages"),
  };
  db.close();
  return result;
}

const dir = mkdtempSync(join(tmpdir(), "glove-bench-retention-"));
const path = join(dir, "glove.db");
const storage = sqliteStorage({ path });
const written = await seed(storage);
await storage.close?.();
const without = measure(path);

const server = createGloveServer({
  store: sqliteStorage({ path }),
  agents: { assistant: ({ store }) => new Glove({ store, model: new ScriptedModel([]), systemPrompt: "-" }) },
  authenticate: () => null,
  retention: {
    inactiveConversationDays: 60,
    traceDays: 14,
    settledWaitDays: 7,
    branchesPerConversation: 3,
    timeBudgetMs: 60_000,
    batchSize: 1_000,
  },
});
let runs = 0;
const started = performance.now();
for (;;) {
  runs += 1;
  if ((await server.runRetention()).wrapped) break;
}
const retentionMs = performance.now() - started;
await server.close();
const withRetention = measure(path);
const vacuumDb = openSqliteDatabase(path, { driver: "auto" });
vacuumDb.exec("VACUUM");
vacuumDb.close();
const vacuumed = measure(path);
rmSync(dir, { recursive: true, force: true });

const perMessage = (m: { usedBytes: number; messages: number }) => Math.round(m.usedBytes / m.messages);
const results = {
  conversations,
  turns,
  messagesWritten: written,
  without: { ...without, bytesPerMessage: perMessage(without) },
  withRetention: {
    ...withRetention,
    bytesPerMessage: perMessage(withRetention),
    runs,
    retentionMs: Math.round(retentionMs),
  },
  afterVacuum: { ...vacuumed, bytesPerMessage: perMessage(vacuumed) },
};
console.log(
  `without retention: ${results.without.bytesPerMessage} B per stored message (${without.messages} messages, ${without.fileBytes} B file)`,
);
console.log(
  `with retention:    ${results.withRetention.bytesPerMessage} B per stored message (${withRetention.messages} messages, ${withRetention.fileBytes} B file, ${runs} run(s), ${results.withRetention.retentionMs} ms)`,
);
console.log(`after VACUUM:      ${vacuumed.fileBytes} B file`);
console.log(`RESULTS ${JSON.stringify(results)}`);
