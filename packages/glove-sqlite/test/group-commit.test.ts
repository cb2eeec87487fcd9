/**
 * Group commit: the writes of one turn of the event loop share one transaction, each still
 * all-or-nothing, each acknowledged only after the commit — and, seen from outside, nothing differs
 * from each write committing at once (the same outcomes, the same state, reads in call order).
 */
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import BetterSqlite3 from "better-sqlite3";
import fc from "fast-check";
import { GloveError, type Message } from "glove-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GroupCommit, SqliteStore } from "../src/index.js";
import { buildForChildProcesses, repoRoot } from "../../../test-support/child-processes.js";
import { PROMPT_WAIT_MS, SLOW_WORK_MS } from "../../../test-support/timeouts.js";

const dir = mkdtempSync(join(tmpdir(), "glove-sqlite-group-commit-"));
let files = 0;
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function openFile(): { path: string; db: BetterSqlite3.Database } {
  const path = join(dir, `db-${files++}.db`);
  const db = new BetterSqlite3(path);
  db.pragma("journal_mode = WAL");
  return { path, db };
}

const text = (value: string): Message => ({ sender: "agent", text: value });
const MAX_TOKENS = Number.MAX_SAFE_INTEGER;

describe("GroupCommit on one connection", () => {
  it("writes from many conversations in one turn of the loop are one commit; each resolves only once another connection can read it", async () => {
    const { path, db } = openFile();
    const stores = Array.from(
      { length: 10 },
      (_, i) => new SqliteStore({ database: db, sessionId: `c${i}`, groupCommit: true }),
    );
    const group = GroupCommit.of(db)!;
    const observer = new BetterSqlite3(path, { readonly: true });
    const rows = () => (observer.prepare("SELECT count(*) AS n FROM glove_messages").get() as { n: number }).n;
    const before = group.commits;

    const seenAtResolve: number[] = [];
    const writes = stores.map((store, i) =>
      store.appendMessages([text(`hello ${i}`)]).then(() => seenAtResolve.push(rows())),
    );
    expect(group.pending).toBe(10);
    expect(rows()).toBe(0); // queued, not yet in the file
    await Promise.all(writes);

    expect(group.commits - before).toBe(1);
    expect(seenAtResolve).toEqual(Array(10).fill(10));
    for (const [i, store] of stores.entries())
      expect((await store.getMessages()).map((m) => m.text)).toEqual([`hello ${i}`]);
    observer.close();
    db.close();
  });

  it("a write that fails inside the batch rejects alone with its typed error; the writes around it commit", async () => {
    const { db } = openFile();
    const [a, b] = ["a", "b"].map((sessionId) => new SqliteStore({ database: db, sessionId, groupCommit: true }));
    await a!.addTokens({ tokens_in: MAX_TOKENS - 10, tokens_out: 0 });

    const results = await Promise.allSettled([
      b!.appendMessages([text("before")]),
      a!.appendMessages([text("a's own")]),
      a!.addTokens({ tokens_in: 20, tokens_out: 0 }), // past 2^53 − 1: refused when it runs
      b!.appendMessages([text("after")]),
    ]);

    expect(results.map((r) => r.status)).toEqual(["fulfilled", "fulfilled", "rejected", "fulfilled"]);
    const refusal = (results[2] as PromiseRejectedResult).reason;
    expect(GloveError.isInstance(refusal) && refusal.code).toBe("GLOVE_STORE_INVALID");
    expect(await a!.getTokenCount()).toBe(MAX_TOKENS - 10);
    expect((await a!.getMessages()).map((m) => m.text)).toEqual(["a's own"]);
    expect((await b!.getMessages()).map((m) => m.text)).toEqual(["before", "after"]);
    db.close();
  });

  it("an append refused halfway (its second message) leaves none of its messages, in a batch with others' writes", async () => {
    const { db } = openFile();
    const [a, b] = ["a", "b"].map((sessionId) => new SqliteStore({ database: db, sessionId, groupCommit: true }));
    db.exec(
      `CREATE TRIGGER refuse BEFORE INSERT ON glove_messages WHEN NEW.body LIKE '%refuse me%' BEGIN SELECT RAISE(ABORT, 'refused by a trigger'); END`,
    );
    const results = await Promise.allSettled([
      a!.appendMessages([text("a before")]),
      b!.appendMessages([text("kept?"), text("refuse me")]),
      b!.incrementTurn(),
      a!.appendMessages([text("a after")]),
    ]);
    expect(results.map((r) => r.status)).toEqual(["fulfilled", "rejected", "fulfilled", "fulfilled"]);
    expect(String((results[1] as PromiseRejectedResult).reason)).toMatch(/refused by a trigger/);
    expect((await b!.getMessages()).map((m) => m.text)).toEqual([]);
    expect(await b!.messageCount()).toBe(0);
    expect(await b!.getTurnCount()).toBe(1);
    expect((await a!.getMessages()).map((m) => m.text)).toEqual(["a before", "a after"]);
    db.close();
  });

  it("a read sees every write queued before it, as when each write committed at once", async () => {
    const { db } = openFile();
    const store = new SqliteStore({ database: db, sessionId: "reads", groupCommit: true });
    const appended = store.appendMessages([text("one"), text("two")]);
    const turned = store.incrementTurn();
    expect(await store.messageCount()).toBe(2);
    expect(await store.getTurnCount()).toBe(1);
    await Promise.all([appended, turned]);
    db.close();
  });

  it("a read of another conversation leaves the batch to grow; a read of the written one, or any read after a write that names nothing, runs it", async () => {
    const { db } = openFile();
    const [a, b] = ["a", "b"].map((sessionId) => new SqliteStore({ database: db, sessionId, groupCommit: true }));
    const group = GroupCommit.of(db)!;
    const written = a!.appendMessages([text("for a")]);
    expect(await b!.messageCount()).toBe(0);
    expect(group.pending).toBe(1);
    expect(await a!.messageCount()).toBe(1);
    expect(group.pending).toBe(0);
    await written;

    const anything = group.write(() => db.prepare("UPDATE glove_sessions SET turns = 7 WHERE session_id = 'b'").run());
    expect(await b!.getTurnCount()).toBe(7);
    await anything;
    db.close();
  });

  it("messages are read at the call: changing the list afterwards does not change what is stored", async () => {
    const { db } = openFile();
    const store = new SqliteStore({ database: db, sessionId: "copy", groupCommit: true });
    const batch = [text("kept")];
    const written = store.appendMessages(batch);
    batch.push(text("pushed after the call"));
    await written;
    expect((await store.getMessages()).map((m) => m.text)).toEqual(["kept"]);
    db.close();
  });

  it("writes queued inside the caller's own open transaction join it (and its rollback)", async () => {
    const { db } = openFile();
    const store = new SqliteStore({ database: db, sessionId: "joined", groupCommit: true });
    db.exec("BEGIN");
    const written = store.appendMessages([text("inside")]);
    GroupCommit.of(db)!.flush();
    await written;
    db.exec("ROLLBACK");
    expect(await store.getMessages()).toEqual([]);
    db.close();
  });

  it("closing the connection with writes queued rejects them with GLOVE_STORE_CLOSED; closing a store that owns its file commits them first", async () => {
    const shared = openFile();
    const store = new SqliteStore({ database: shared.db, sessionId: "closed", groupCommit: true });
    const lost = store.appendMessages([text("lost")]);
    shared.db.close();
    await expect(lost).rejects.toMatchObject({ code: "GLOVE_STORE_CLOSED" });

    const own = openFile();
    own.db.close();
    const owner = new SqliteStore({ dbPath: own.path, sessionId: "owned", groupCommit: true });
    const kept = owner.appendMessages([text("kept")]);
    owner.close();
    await kept;
    const reopened = new SqliteStore({ dbPath: own.path, sessionId: "owned" });
    expect((await reopened.getMessages()).map((m) => m.text)).toEqual(["kept"]);
    reopened.close();
  });
});

type Op =
  | { kind: "append"; session: number; texts: string[] }
  | { kind: "tokens"; session: number; amount: number }
  | { kind: "turn"; session: number }
  | { kind: "permission"; session: number; tool: string; status: "granted" | "denied" }
  | { kind: "task"; session: number; id: string; status: "pending" | "completed" }
  | { kind: "count"; session: number };

const SESSIONS = 3;
const session = fc.integer({ min: 0, max: SESSIONS - 1 });
const op: fc.Arbitrary<Op> = fc.oneof(
  fc.record({
    kind: fc.constant("append" as const),
    session,
    texts: fc.array(fc.string({ maxLength: 8 }), { maxLength: 3 }),
  }),
  // Large amounts make some adds overflow 2^53 − 1 when they run: refusals happen inside batches.
  fc.record({
    kind: fc.constant("tokens" as const),
    session,
    amount: fc.oneof(fc.integer({ min: 0, max: 100 }), fc.constant(2 ** 52)),
  }),
  fc.record({ kind: fc.constant("turn" as const), session }),
  fc.record({
    kind: fc.constant("permission" as const),
    session,
    tool: fc.constantFrom("a", "b"),
    status: fc.constantFrom("granted" as const, "denied" as const),
  }),
  fc.record({
    kind: fc.constant("task" as const),
    session,
    id: fc.constantFrom("t1", "t2"),
    status: fc.constantFrom("pending" as const, "completed" as const),
  }),
  fc.record({ kind: fc.constant("count" as const), session }),
);

function run(store: SqliteStore, o: Op): Promise<unknown> {
  switch (o.kind) {
    case "append":
      return store.appendMessages(o.texts.map(text));
    case "tokens":
      return store.addTokens({ tokens_in: o.amount, tokens_out: 0 });
    case "turn":
      return store.incrementTurn();
    case "permission":
      return store.setPermission(o.tool, o.status);
    case "task":
      return store.addTasks([{ id: o.id, content: o.id, activeForm: o.id, status: o.status }]);
    case "count":
      return store.messageCount();
  }
}

async function stateOf(store: SqliteStore) {
  return {
    messages: (await store.getMessages()).map((m) => m.text),
    tokens: await store.getTokenCount(),
    turns: await store.getTurnCount(),
    tasks: await store.getTasks(),
    permissions: [await store.getPermission("a"), await store.getPermission("b")],
  };
}

const outcome = (r: PromiseSettledResult<unknown>) =>
  r.status === "fulfilled"
    ? { ok: r.value ?? null }
    : { error: GloveError.isInstance(r.reason) ? r.reason.code : String(r.reason) };

describe("GroupCommit against writes committed one by one (fast-check)", () => {
  it(
    "random turns of the loop, each with several conversations' writes and reads at once: same outcome per call, same state",
    async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.array(fc.array(op, { minLength: 1, maxLength: 8 }), { minLength: 1, maxLength: 6 }),
          async (ticks) => {
            const grouped = openFile();
            const plain = openFile();
            const g = Array.from(
              { length: SESSIONS },
              (_, i) => new SqliteStore({ database: grouped.db, sessionId: `s${i}`, groupCommit: true }),
            );
            const p = Array.from(
              { length: SESSIONS },
              (_, i) => new SqliteStore({ database: plain.db, sessionId: `s${i}` }),
            );
            try {
              for (const tick of ticks) {
                // Grouped: the whole tick issued at once; plain: one call after the other, each awaited.
                const together = await Promise.allSettled(tick.map((o) => run(g[o.session]!, o)));
                const oneByOne: Array<PromiseSettledResult<unknown>> = [];
                for (const o of tick) oneByOne.push(...(await Promise.allSettled([run(p[o.session]!, o)])));
                expect(together.map(outcome)).toEqual(oneByOne.map(outcome));
              }
              for (let i = 0; i < SESSIONS; i++) expect(await stateOf(g[i]!)).toEqual(await stateOf(p[i]!));
            } finally {
              grouped.db.close();
              plain.db.close();
            }
          },
        ),
        { numRuns: Number(process.env.GLOVE_FUZZ_RUNS ?? 60) },
      );
    },
    SLOW_WORK_MS,
  );
});

describe("GroupCommit under SIGKILL", () => {
  beforeAll(() => buildForChildProcesses("packages/glove-sqlite"), SLOW_WORK_MS);

  it(
    "a process killed while eight conversations record model calls at once: every acknowledged call is stored, every call whole",
    { timeout: SLOW_WORK_MS },
    async () => {
      const { path, db } = openFile();
      db.close();
      const script = fileURLToPath(new URL("./fixtures/group-commit-calls.mjs", import.meta.url));
      for (const afterMs of [0, 11, 29]) {
        const acked = await killAfterAcks(script, [path, "8"], afterMs);
        const reopened = new BetterSqlite3(path);
        for (let i = 0; i < 8; i++) {
          const store = new SqliteStore({ database: reopened, sessionId: `session-${i}` });
          const turns = await store.getTurnCount();
          expect(turns).toBeGreaterThanOrEqual(acked.get(`session-${i}`) ?? 0);
          expect((await store.getMessages()).map((m) => m.text)).toEqual(
            Array.from({ length: turns }, (_, t) => [`${t}:0`, `${t}:1`]).flat(),
          );
          expect(await store.getTokenCount()).toBe(4 * turns);
        }
        reopened.close();
      }
    },
  );
});

/** Runs the child until it has acknowledged 200 calls, waits `afterMs`, kills it; the last acknowledged turn count per session. */
async function killAfterAcks(script: string, args: string[], afterMs: number): Promise<Map<string, number>> {
  const child = spawn(process.execPath, [script, ...args], { cwd: repoRoot, stdio: ["ignore", "pipe", "pipe"] });
  const acked = new Map<string, number>();
  let stdout = "";
  let stderr = "";
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<NodeJS.Signals | null>((resolve) => child.on("exit", (_code, signal) => resolve(signal)));
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`the child never acknowledged 200 calls; stderr: ${stderr}`)),
      PROMPT_WAIT_MS,
    );
    child.stdout.on("data", (chunk: Buffer) => {
      stdout += chunk.toString();
      if (stdout.includes("RECORDING")) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.on("exit", (code) => reject(new Error(`the child exited early (${code}); stderr: ${stderr}`)));
  });
  await new Promise((resolve) => setTimeout(resolve, afterMs));
  child.kill("SIGKILL");
  expect(await exited).toBe("SIGKILL");
  for (const line of stdout.split("\n")) {
    const [word, sessionId, turns] = line.split(" ");
    if (word === "ACK" && sessionId && turns) acked.set(sessionId, Math.max(acked.get(sessionId) ?? 0, Number(turns)));
  }
  return acked;
}
