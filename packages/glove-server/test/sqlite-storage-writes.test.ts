import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { sqliteStorage } from "glove-server";
import { GroupCommit, type SqliteStore } from "glove-sqlite";
import { startServer } from "./support/harness.js";
import { openTestDatabase, testSqliteDriver } from "../../../test-support/sqlite-driver.js";

// What sqliteStorage writes with, and what a delete prepares.
describe("sqliteStorage writes", () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  it("a file it opens is in WAL mode with synchronous = NORMAL (no fsync per commit, as glove-sqlite), and its writes reach the file", async () => {
    const dir = mkdtempSync(join(tmpdir(), "glove-writes-"));
    dirs.push(dir);
    const path = join(dir, "glove.db");
    const storage = sqliteStorage({ path, driver: testSqliteDriver });
    const store = (await storage.store("c")) as SqliteStore;
    expect(store.db.prepare("PRAGMA journal_mode").get()).toEqual({ journal_mode: "wal" });
    expect(store.db.prepare("PRAGMA synchronous").get()).toEqual({ synchronous: 1 }); // NORMAL
    await store.appendMessages([{ sender: "user", text: "kept" }]);
    // Another connection (another process would be the same) reads the commit at once.
    const reader = openTestDatabase(path, { readonly: true });
    expect(reader.prepare("SELECT count(*) AS n FROM glove_messages WHERE session_id = 'c'").get()).toEqual({ n: 1 });
    reader.close();
    await storage.close?.();
  });

  it("a handle passed in keeps its own pragmas", async () => {
    const db = openTestDatabase(":memory:");
    db.exec("PRAGMA synchronous = FULL");
    sqliteStorage({ database: db });
    expect(db.prepare("PRAGMA synchronous").get()).toEqual({ synchronous: 2 });
    db.close();
  });

  it("deleting conversations prepares its statements once, and each delete removes only its own", async () => {
    const db = openTestDatabase(":memory:");
    const storage = sqliteStorage({ database: db });
    const ids = ["a", "b", "c"];
    for (const id of ids) await (await storage.store(id)).appendMessages([{ sender: "user", text: id }]);
    await storage.delete!("a");
    const prepare = db.prepare.bind(db);
    const prepared: string[] = [];
    db.prepare = ((sql: string) => {
      prepared.push(sql);
      return prepare(sql);
    }) as typeof db.prepare;
    await storage.delete!("b");
    await storage.delete!("never-existed");
    // Only the trace store's check for its table, which no turn has created here.
    expect(prepared.filter((sql) => !sql.includes("sqlite_master"))).toEqual([]);
    db.prepare = prepare;
    const left = db.prepare("SELECT session_id FROM glove_messages ORDER BY session_id").all();
    expect(left).toEqual([{ session_id: "c" }]);
    db.close();
  });

  it("a delete removes the traces and the conversation's rows in one transaction: a failing purge keeps the traces too", async () => {
    const db = openTestDatabase(":memory:");
    const storage = sqliteStorage({ database: db });
    await (await storage.store("a")).appendMessages([{ sender: "user", text: "a" }]);
    const trace = {
      conversationId: "a",
      turnId: "t1",
      startedAt: "2026-01-01T00:00:00.000Z",
      endedAt: null,
      status: "running" as const,
      spans: [],
      truncated: false,
    };
    await storage.inspect!.traces.save(trace);
    db.exec("CREATE TRIGGER refuse BEFORE DELETE ON glove_messages BEGIN SELECT RAISE(ABORT, 'disk on fire'); END");
    await expect(storage.delete!("a")).rejects.toThrow(/disk on fire/);
    expect(await storage.inspect!.traces.get("a", "t1")).toMatchObject({ turnId: "t1" });
    db.exec("DROP TRIGGER refuse");
    await storage.delete!("a");
    expect(await storage.inspect!.traces.get("a", "t1")).toBeUndefined();
    expect(db.prepare("SELECT count(*) AS n FROM glove_messages").get()).toEqual({ n: 0 });
    db.close();
  });

  it("turns of many conversations at once share commits (group commit): fewer commits than writes, every message and catalog change stored", async () => {
    const db = openTestDatabase(":memory:");
    const storage = sqliteStorage({ database: db });
    const group = GroupCommit.of(db)!;
    let writes = 0;
    const write = group.write.bind(group);
    group.write = ((run: () => unknown, key?: string) => {
      writes++;
      return write(run, key);
    }) as typeof group.write;
    const answers = Array.from({ length: 12 }, (_, i) => ({ text: `answer ${i}` }));
    const s = await startServer({
      store: storage,
      limits: { concurrentTurnsPerPrincipal: 12 },
      kit: { script: [...answers] },
    });
    try {
      const ids = await Promise.all(answers.map(() => s.conversation()));
      const tabs = ids.map((id) => s.events(id));
      await Promise.all(tabs.map((tab) => tab.waitForEvent("snapshot")));
      const commitsBefore = group.commits;
      writes = 0;
      const posted = await Promise.all(
        ids.map((id, i) => s.api(`/conversations/${id}/messages`, { body: { text: `question ${i}` } })),
      );
      expect(posted.map((p) => p.status)).toEqual(ids.map(() => 202));
      await Promise.all(tabs.map((tab) => tab.waitForEvent("turn_end")));
      for (const id of ids) await s.api(`/conversations/${id}`); // reads: the queue is committed
      const commits = group.commits - commitsBefore;
      // Each turn writes its message, the model's answer, the catalog at start and end, its trace.
      expect(writes).toBeGreaterThanOrEqual(12 * 4);
      expect(commits).toBeLessThan(writes);
      for (const [i, id] of ids.entries()) {
        const texts = (await (await storage.store(id)).getMessages()).map((m) => m.text);
        expect(texts).toEqual([`question ${i}`, expect.stringMatching(/^answer \d+$/)]);
        expect(await storage.catalog.get(id)).toMatchObject({ runningTurnId: null, title: `question ${i}` });
      }
    } finally {
      await s.close();
      db.close();
    }
  });
});
