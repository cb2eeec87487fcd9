/**
 * Watched inboxes are re-read for items resolved elsewhere through one InboxPoller: with
 * PostgreSQL storage one fingerprint query per period covers every watched conversation, and only
 * a conversation whose inbox changed reads it (before: one inbox query per conversation per period).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import fc from "fast-check";
import pg from "pg";
import BetterSqlite3 from "better-sqlite3";
import type { InboxItem, StoreAdapter } from "glove-core";
import { PostgresStore } from "glove-postgres";
import { GroupCommit, SqliteStore } from "glove-sqlite";
import { postgresStorage } from "glove-server/postgres";
import { sqliteStorage } from "../src/index.js";
import { InboxPoller } from "../src/conversations/inbox-poller.js";
import { postgresInboxFingerprints } from "../src/storage/postgres/inbox-fingerprints.js";
import { sqliteInboxFingerprints } from "../src/storage/sqlite-inbox-fingerprints.js";
import type { InboxFingerprints } from "../src/storage/types.js";
import { startServer } from "./support/harness.js";
import { eventually } from "./support/polling.js";
import { PROMPT_WAIT_MS, SLOW_WORK_MS } from "../../../test-support/timeouts.js";

const PG_URL = process.env.GLOVE_PG_URL ?? "postgres://postgres@127.0.0.1:5432/test";
const pool = new pg.Pool({ connectionString: PG_URL, max: 10 });
const schemas: string[] = [];
const newSchema = () => {
  const schema = `glove_inbox_poll_${process.pid}_${schemas.length}_${Math.random().toString(36).slice(2, 7)}`;
  schemas.push(schema);
  return schema;
};
afterAll(async () => {
  for (const schema of schemas) await pool.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
  await pool.end();
});

const item = (id: string, extra: Partial<InboxItem> = {}): InboxItem => ({
  id,
  tag: "restock",
  request: `When is ${id} back?`,
  response: null,
  status: "pending",
  blocking: false,
  created_at: "2026-11-27T00:00:00.000Z",
  resolved_at: null,
  ...extra,
});
const noLog = () => undefined;
const tick = (ms = 5) => new Promise((resolve) => setTimeout(resolve, ms));

describe("InboxPoller", () => {
  it("reads only the inboxes whose fingerprint changed, and again after a failed read", async () => {
    const prints = new Map([
      ["a", "1"],
      ["b", "1"],
    ]);
    const poller = new InboxPoller(60_000, async () => new Map(prints), noLog);
    const reads: string[] = [];
    let failB = false;
    const stops = ["a", "b", "c"].map((id) =>
      poller.watch(
        id,
        async () => {
          reads.push(id);
          if (id === "b" && failB) throw new Error("storage away");
        },
        () => id !== "c",
      ),
    );
    await poller.tick();
    expect(reads.sort()).toEqual(["a", "b"]); // first sight: each reads once; "c" is not watched now
    reads.length = 0;
    await poller.tick();
    expect(reads).toEqual([]);
    prints.set("b", "2");
    failB = true;
    await poller.tick();
    expect(reads).toEqual(["b"]);
    failB = false;
    await poller.tick(); // the failed read is not taken as seen
    expect(reads).toEqual(["b", "b"]);
    await poller.tick();
    expect(reads).toEqual(["b", "b"]);
    prints.delete("a"); // its items went away: a fingerprint missing from the answer is a change too
    await poller.tick();
    expect(reads).toEqual(["b", "b", "a"]);
    for (const stop of stops) stop();
  });

  it("reads every watched inbox in a period its fingerprints could not be read, and without fingerprints at all", async () => {
    let broken = true;
    const logged: string[] = [];
    const poller = new InboxPoller(
      60_000,
      async () => {
        if (broken) throw new Error("database away");
        return new Map();
      },
      (message) => logged.push(message),
    );
    const reads: string[] = [];
    const stopA = poller.watch(
      "a",
      async () => void reads.push("a"),
      () => true,
    );
    await poller.tick();
    await poller.tick();
    expect(reads).toEqual(["a", "a"]);
    expect(logged[0]).toMatch(/could not fingerprint inboxes/);
    broken = false;
    await poller.tick();
    await poller.tick();
    expect(reads).toEqual(["a", "a", "a"]);
    stopA();

    const plain = new InboxPoller(60_000, undefined, noLog);
    const stopB = plain.watch(
      "b",
      async () => void reads.push("b"),
      () => true,
    );
    await plain.tick();
    await plain.tick();
    expect(reads.filter((r) => r === "b")).toHaveLength(2);
    stopB();
  });

  it("reports failed reads in one line per period, however many failed", async () => {
    const logged: Array<[string, unknown]> = [];
    const poller = new InboxPoller(60_000, undefined, (message, error) => logged.push([message, error]));
    const away = new Error("storage away");
    const stops = Array.from({ length: 5 }, (_, i) =>
      poller.watch(
        `c${i}`,
        async () => Promise.reject(away),
        () => true,
      ),
    );
    await poller.tick();
    expect(logged).toEqual([
      ["[glove-server] could not re-read 5 conversations' inboxes; trying again next period", away],
    ]);
    await poller.tick();
    expect(logged).toHaveLength(2);
    for (const stop of stops) stop();
  });

  it("keeps one read per conversation at a time, and stops its timer when nothing is watched", async () => {
    const poller = new InboxPoller(10, undefined, noLog);
    let running = 0;
    let most = 0;
    let reads = 0;
    const stop = poller.watch(
      "a",
      async () => {
        running += 1;
        most = Math.max(most, running);
        reads += 1;
        await tick(40);
        running -= 1;
      },
      () => true,
    );
    expect(await eventually(() => reads >= 3)).toBe(true);
    expect(most).toBe(1);
    stop();
    await tick(60);
    const after = reads;
    await tick(60);
    expect(reads).toBe(after);
  });
});

/** Random adds, updates and consumes over the stores' sessions: the fingerprint changes exactly when the list a store reads does. */
async function expectFingerprintsFollowInbox(
  stores: StoreAdapter[],
  sessions: string[],
  fingerprints: InboxFingerprints,
  clear: () => Promise<unknown>,
): Promise<void> {
  const op = fc.record({
    session: fc.integer({ min: 0, max: sessions.length - 1 }),
    item: fc.constantFrom("i0", "i1", "i2"),
    kind: fc.constantFrom("add", "resolve", "consume", "same"),
    text: fc.string({ maxLength: 12 }),
  });
  await fc.assert(
    fc.asyncProperty(fc.array(op, { minLength: 1, maxLength: 12 }), async (ops) => {
      await clear();
      const lists = async () => Promise.all(stores.map(async (s) => JSON.stringify(await s.getInboxItems!())));
      let beforeLists = await lists();
      let beforePrints = await fingerprints(sessions);
      for (const { session, item: id, kind, text } of ops) {
        const store = stores[session]!;
        const present = (await store.getInboxItems!()).find((i) => i.id === id);
        if (kind === "add") await store.addInboxItem!(item(id, { request: text || "?" }));
        else if (kind === "resolve" && present)
          await store.updateInboxItem!(id, {
            status: "resolved",
            response: text,
            resolved_at: "2026-11-27T01:00:00.000Z",
          });
        else if (kind === "consume" && present) await store.consumeInboxItem!(id);
        else if (kind === "same" && present) await store.updateInboxItem!(id, { status: present.status });
        const afterLists = await lists();
        const afterPrints = await fingerprints(sessions);
        sessions.forEach((sessionId, i) => {
          const listChanged = afterLists[i] !== beforeLists[i];
          const printChanged = (afterPrints.get(sessionId) ?? "") !== (beforePrints.get(sessionId) ?? "");
          expect(printChanged).toBe(listChanged);
        });
        beforeLists = afterLists;
        beforePrints = afterPrints;
      }
    }),
    { numRuns: 25 },
  );
}

describe("inbox fingerprints", () => {
  it(
    "PostgreSQL: change exactly when the inbox a store reads changes (random adds, updates, consumes over three sessions)",
    async () => {
      const schema = newSchema();
      const sessions = ["s0", "s1", "s2"];
      const stores = await Promise.all(sessions.map((sessionId) => PostgresStore.open({ pool, schema, sessionId })));
      await expectFingerprintsFollowInbox(stores, sessions, postgresInboxFingerprints(pool, schema), () =>
        pool.query(`DELETE FROM ${schema}.glove_inbox`),
      );
    },
    SLOW_WORK_MS,
  );

  it(
    "SQLite: the same, with the writes group-committed (a fingerprint sees writes still queued)",
    async () => {
      const database = new BetterSqlite3(":memory:");
      GroupCommit.enable(database);
      const sessions = ["s0", "s1", "s2"];
      const stores = sessions.map((sessionId) => new SqliteStore({ database, sessionId }));
      const fingerprints = sqliteInboxFingerprints(database);
      await expectFingerprintsFollowInbox(stores, sessions, fingerprints, async () =>
        database.prepare("DELETE FROM glove_inbox").run(),
      );
      // A write queued in this turn of the loop is seen (the read commits it first).
      const before = (await fingerprints(["s0"])).get("s0");
      const write = stores[0]!.addInboxItem!(item("queued"));
      const seen = (await fingerprints(["s0"])).get("s0");
      await write;
      expect(seen).not.toBe(before);
      expect(seen).toBe((await fingerprints(["s0"])).get("s0"));
      // Separators inside the text move nothing across columns: these two items differ.
      database.prepare("DELETE FROM glove_inbox").run();
      await stores[1]!.addInboxItem!(item("same", { tag: "x", request: "a','b" }));
      await stores[2]!.addInboxItem!(item("same", { tag: "x','a", request: "b" }));
      const prints = await fingerprints(["s1", "s2"]);
      expect(prints.get("s1")).not.toBe(prints.get("s2"));
      database.close();
    },
    SLOW_WORK_MS,
  );

  it("SQLite: a file no store opened yet has no fingerprints", async () => {
    const database = new BetterSqlite3(":memory:");
    expect(await sqliteInboxFingerprints(database)(["a", "b"])).toEqual(new Map());
    new SqliteStore({ database, sessionId: "a" });
    expect(await sqliteInboxFingerprints(database)(["a"])).toEqual(new Map());
    database.close();
  });
});

/**
 * Eight conversations with an open stream on `server`, idle: fingerprints are read every period and
 * no inbox after the first sight of each; then `otherProcess` stores an item (and resolves it, when
 * it can) in one conversation's inbox, and only that conversation's stream hears of it.
 */
async function expectIdleInboxesPolledByFingerprint(
  server: Awaited<ReturnType<typeof startServer>>,
  counts: { fingerprints: number; inboxReads: number },
  otherProcess: (conversationId: string) => Promise<StoreAdapter>,
): Promise<void> {
  const ids = await Promise.all(Array.from({ length: 8 }, () => server.conversation()));
  const streams = ids.map((id) => server.events(id));
  await Promise.all(streams.map((s) => s.waitForEvent("snapshot")));
  const startReads = counts.inboxReads;
  expect(await eventually(() => counts.fingerprints >= 12, PROMPT_WAIT_MS)).toBe(true);
  // First sight reads each inbox once; after that nothing changed, so nothing is read.
  expect(counts.inboxReads - startReads).toBeLessThanOrEqual(ids.length);
  const settled = counts.inboxReads;
  const fingerprintsThen = counts.fingerprints;
  expect(await eventually(() => counts.fingerprints >= fingerprintsThen + 6, PROMPT_WAIT_MS)).toBe(true);
  expect(counts.inboxReads).toBe(settled);
  // Another process stores an item of one conversation, then resolves it: only its stream hears of it.
  const other = await otherProcess(ids[3]!);
  await other.addInboxItem!(item("oat-milk"));
  const event = await streams[3]!.waitForEvent("inbox", (d) => (d.items as InboxItem[]).length === 1, PROMPT_WAIT_MS);
  expect((event.data as { items: InboxItem[] }).items[0]).toMatchObject({ id: "oat-milk", status: "pending" });
  await other.updateInboxItem!("oat-milk", {
    status: "resolved",
    response: "Tuesday.",
    resolved_at: new Date().toISOString(),
  });
  await streams[3]!.waitForEvent("inbox", (d) => (d.items as InboxItem[])[0]?.status === "resolved", PROMPT_WAIT_MS);
  expect(streams.filter((s, i) => i !== 3 && s.events.some((e) => e.event === "inbox"))).toHaveLength(0);
}

describe("glove-server on PostgreSQL: watched inboxes", () => {
  it(
    "cost one fingerprint query per period, not one inbox query per conversation, and a change still reaches its stream",
    async () => {
      const schema = newSchema();
      const counts = { fingerprints: 0, inboxReads: 0 };
      const query = pool.query.bind(pool) as (...args: unknown[]) => Promise<unknown>;
      const counting = Object.create(pool) as pg.Pool;
      // Counts what the server asks (the store reads the inbox by session; the poller for many at once).
      (counting as unknown as { query: typeof query }).query = (...args: unknown[]) => {
        const sql = typeof args[0] === "string" ? args[0] : "";
        if (sql.includes("glove_inbox") && sql.includes("ANY($1")) counts.fingerprints += 1;
        else if (/SELECT item_id.*FROM .*glove_inbox/s.test(sql)) counts.inboxReads += 1;
        return query(...args);
      };
      const server = await startServer({
        store: postgresStorage({ pool: counting, schema }),
        events: { inboxPollMs: 25 },
      });
      try {
        await expectIdleInboxesPolledByFingerprint(server, counts, (sessionId) =>
          PostgresStore.open({ pool, schema, sessionId }),
        );
      } finally {
        await server.close();
      }
    },
    SLOW_WORK_MS,
  );
});

describe("glove-server on SQLite: watched inboxes", () => {
  it(
    "cost one fingerprint statement per period, not one inbox read per conversation, and a change another connection makes still reaches its stream",
    async () => {
      const dir = mkdtempSync(join(tmpdir(), "glove-inbox-poll-"));
      const database = new BetterSqlite3(join(dir, "glove.db"));
      database.pragma("journal_mode = WAL");
      const counts = { fingerprints: 0, inboxReads: 0 };
      const statementClass = database.prepare("SELECT 1").constructor as {
        prototype: { all: (...args: unknown[]) => unknown; source: string };
      };
      const all = statementClass.prototype.all;
      statementClass.prototype.all = function (this: { source: string }, ...args: unknown[]) {
        if (this.source.includes("glove_inbox") && this.source.includes("json_each")) counts.fingerprints += 1;
        else if (/FROM glove_inbox WHERE session_id = \? ORDER BY position/.test(this.source)) counts.inboxReads += 1;
        return all.apply(this, args);
      };
      const server = await startServer({ store: sqliteStorage({ database }), events: { inboxPollMs: 25 } });
      const other = new BetterSqlite3(join(dir, "glove.db"));
      try {
        // Another connection to the file stands for another process.
        await expectIdleInboxesPolledByFingerprint(
          server,
          counts,
          async (sessionId) => new SqliteStore({ database: other, sessionId }),
        );
      } finally {
        statementClass.prototype.all = all;
        await server.close();
        other.close();
        database.close();
        rmSync(dir, { recursive: true, force: true });
      }
    },
    SLOW_WORK_MS,
  );
});
