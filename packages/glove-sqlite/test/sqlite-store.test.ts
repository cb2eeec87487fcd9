import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import BetterSqlite3 from "better-sqlite3";
import { afterEach, describe, expect, it } from "vitest";
import { GloveError } from "glove-core";
import { INTERRUPTED_TOOL_MESSAGE, SCHEMA_VERSION, SqliteStore, SqliteStoreError } from "../src/index.js";
import { expectLateResultRefused } from "../../../test-support/late-writer.js";

let dir: string;
let opened: Array<{ close(): void }> = [];

function fresh(): string {
  dir = mkdtempSync(join(tmpdir(), "glove-sqlite-"));
  return join(dir, "store.db");
}
function open(dbPath: string, sessionId: string): SqliteStore {
  const store = new SqliteStore({ dbPath, sessionId });
  opened.push(store);
  return store;
}
function raw(dbPath: string): BetterSqlite3.Database {
  const db = new BetterSqlite3(dbPath);
  opened.push(db);
  return db;
}
afterEach(() => {
  for (const x of opened) x.close();
  opened = [];
  rmSync(dir, { recursive: true, force: true });
});

describe("SqliteStore", () => {
  it("uses WAL and records the schema version", () => {
    const dbPath = fresh();
    const store = open(dbPath, "s");
    expect(store.db.pragma("journal_mode", { simple: true })).toBe("wal");
    expect(raw(dbPath).prepare("SELECT version FROM glove_schema_version").all()).toEqual([
      { version: SCHEMA_VERSION },
    ]);
  });

  it("refuses a newer schema version with an error naming the session, and changes nothing", async () => {
    const dbPath = fresh();
    const first = open(dbPath, "s");
    await first.appendMessages([{ sender: "user", text: "keep me" }]);
    first.close();
    raw(dbPath)
      .prepare("UPDATE glove_schema_version SET version = ?")
      .run(SCHEMA_VERSION + 1);
    let error: unknown;
    try {
      open(dbPath, "customer-42");
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(SqliteStoreError);
    expect(GloveError.isInstance(error)).toBe(true);
    expect((error as Error).message).toMatch(
      new RegExp(
        `^SqliteStore session "customer-42": SQLite database .*store\\.db has schema version ${SCHEMA_VERSION + 1}, newer than this glove-sqlite supports \\(${SCHEMA_VERSION}\\).*upgrade.*Nothing was changed`,
      ),
    );
    const db = raw(dbPath);
    expect(db.prepare("SELECT version FROM glove_schema_version").get()).toEqual({ version: SCHEMA_VERSION + 1 });
    expect(db.prepare("SELECT body FROM glove_messages").all()).toEqual([
      { body: JSON.stringify({ sender: "user", text: "keep me" }) },
    ]);
  });

  it("refuses an unreadable schema version table and Glove tables without one", () => {
    const a = fresh();
    open(a, "s").close();
    raw(a).prepare("INSERT INTO glove_schema_version (version) VALUES (7)").run();
    expect(() => open(a, "sess-a")).toThrow(
      /SqliteStore session "sess-a": the schema version table .* is unreadable \(2 rows/,
    );

    const b = join(dir, "other.db");
    raw(b).prepare("CREATE TABLE glove_messages (x TEXT)").run();
    expect(() => open(b, "sess-b")).toThrow(
      /SqliteStore session "sess-b": .* has Glove tables \(glove_messages\) but no glove_schema_version table/,
    );
    expect(raw(b).prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all()).toEqual([
      { name: "glove_messages" },
    ]);
  });

  it("reports a corrupt message row with the session and row, and leaves it in place", async () => {
    const dbPath = fresh();
    const store = open(dbPath, "chat-7");
    await store.appendMessages([
      { sender: "user", text: "one" },
      { sender: "agent", text: "two" },
      { sender: "user", text: "three" },
    ]);
    const db = raw(dbPath);
    db.prepare("UPDATE glove_messages SET body = ? WHERE session_id = ? AND seq = 1").run("{not json", "chat-7");
    await expect(store.getMessages()).rejects.toThrow(
      /^SqliteStore session "chat-7": message 1 in SQLite database .* is corrupt: the body is not valid JSON/,
    );
    await expect(store.getMessagesSinceLastCompaction()).rejects.toThrow(/session "chat-7".*corrupt/);
    db.prepare("UPDATE glove_messages SET body = ? WHERE session_id = ? AND seq = 1").run(
      JSON.stringify({ sender: "robot", text: "x" }),
      "chat-7",
    );
    await expect(store.getMessages()).rejects.toThrow(/message 1 .* is corrupt: sender is "robot"/);
    expect(db.prepare("SELECT COUNT(*) AS n FROM glove_messages").get()).toEqual({ n: 3 });
  });

  it("reports corrupt inbox, task and counter rows with the session", async () => {
    const dbPath = fresh();
    const store = open(dbPath, "chat-8");
    await store.addInboxItem({
      id: "i1",
      tag: "t",
      request: "r",
      response: null,
      status: "pending",
      blocking: false,
      created_at: "2026-01-01T00:00:00Z",
      resolved_at: null,
    });
    await store.addTasks([{ id: "t1", content: "c", activeForm: "a", status: "pending" }]);
    const db = raw(dbPath);
    db.pragma("ignore_check_constraints = ON");
    db.prepare("UPDATE glove_inbox SET blocking = 5").run();
    db.prepare("UPDATE glove_tasks SET status = 'later'").run();
    db.prepare("UPDATE glove_sessions SET turns = 'many'").run();
    await expect(store.getInboxItems()).rejects.toThrow(/SqliteStore session "chat-8": inbox item "i1" .* is corrupt/);
    await expect(store.getTasks()).rejects.toThrow(/SqliteStore session "chat-8": task "t1" .* is corrupt/);
    await expect(store.getTurnCount()).rejects.toThrow(
      /SqliteStore session "chat-8": the session row .* is corrupt: turns is "many"/,
    );
  });

  // addTokens is one guarded UPDATE when the row is sound: every other case must still end as the checked path did.
  it("addTokens on a row that is corrupt, missing or near the limit refuses or recovers as before, writing nothing it should not", async () => {
    const dbPath = fresh();
    const store = open(dbPath, "tokens");
    await store.addTokens({ tokens_in: 2, tokens_out: 3 });
    expect(await store.getTokenCount()).toBe(5);
    const db = raw(dbPath);
    db.pragma("ignore_check_constraints = ON");
    const tokens = () =>
      db.prepare("SELECT tokens_in, tokens_out FROM glove_sessions WHERE session_id = 'tokens'").get();
    for (const [column, value] of [
      ["turns", "'many'"],
      ["message_count", "-1"],
      ["tokens_in", "1.5"],
      ["tokens_out", "9007199254740993"],
    ] as const) {
      const before = db.prepare(`SELECT ${column} AS v FROM glove_sessions WHERE session_id = 'tokens'`).get() as {
        v: unknown;
      };
      db.prepare(`UPDATE glove_sessions SET ${column} = ${value} WHERE session_id = 'tokens'`).run();
      const snapshot = tokens();
      const error = await store.addTokens({ tokens_in: 1, tokens_out: 1 }).catch((e: unknown) => e);
      expect(GloveError.isInstance(error) && error.code, column).toBe("GLOVE_STORE_CORRUPT");
      expect(tokens(), column).toEqual(snapshot);
      db.prepare(`UPDATE glove_sessions SET ${column} = ? WHERE session_id = 'tokens'`).run(before.v);
    }
    db.prepare("UPDATE glove_sessions SET tokens_in = ?, tokens_out = 0 WHERE session_id = 'tokens'").run(
      Number.MAX_SAFE_INTEGER - 3,
    );
    await expect(store.addTokens({ tokens_in: 2, tokens_out: 2 })).rejects.toMatchObject({
      code: "GLOVE_STORE_INVALID",
    });
    await store.addTokens({ tokens_in: 2, tokens_out: 1 });
    expect(await store.getTokenCount()).toBe(Number.MAX_SAFE_INTEGER);
    db.prepare("DELETE FROM glove_sessions WHERE session_id = 'tokens'").run();
    await store.addTokens({ tokens_in: 4, tokens_out: 0 });
    expect(await store.getTokenCount()).toBe(4);
    db.close();
  });

  it("records aborted results for tool calls a dead process left unanswered, once the conversation moves on", async () => {
    const dbPath = fresh();
    const store = open(dbPath, "s");
    await store.appendMessages([
      { sender: "user", text: "run it" },
      {
        sender: "agent",
        text: "",
        tool_calls: [
          { tool_name: "slow", id: "c1", input_args: {} },
          { tool_name: "other", input_args: 1 },
        ],
      },
    ]);
    // Another reader does not trigger the repair; only the next append does.
    expect(await open(dbPath, "s").messageCount()).toBe(2);
    await open(dbPath, "s").appendMessages([{ sender: "user", text: "are you there?" }]);
    expect(await store.getMessages()).toEqual([
      { sender: "user", text: "run it" },
      {
        sender: "agent",
        text: "",
        tool_calls: [
          { tool_name: "slow", id: "c1", input_args: {} },
          { tool_name: "other", input_args: 1 },
        ],
      },
      {
        sender: "user",
        text: "",
        tool_results: [
          {
            tool_name: "slow",
            call_id: "c1",
            result: { status: "aborted", data: null, message: INTERRUPTED_TOOL_MESSAGE },
          },
          { tool_name: "other", result: { status: "aborted", data: null, message: INTERRUPTED_TOOL_MESSAGE } },
        ],
      },
      { sender: "user", text: "are you there?" },
    ]);
    // Results appended normally are never doubled.
    await store.appendMessages([
      { sender: "agent", text: "", tool_calls: [{ tool_name: "x", id: "c2", input_args: {} }] },
    ]);
    await store.appendMessages([
      {
        sender: "user",
        text: "",
        tool_results: [{ tool_name: "x", call_id: "c2", result: { status: "success", data: 1 } }],
      },
    ]);
    expect((await store.getMessages()).length).toBe(6);
    expect(await store.messageCount()).toBe(6);
  });

  it("a slow writer's results for a call another process already answered are refused, never stored twice", async () => {
    const path = fresh();
    const a = open(path, "s");
    const b = open(path, "s");
    await expectLateResultRefused(a, b);
  });

  it("answers every call of an interrupted turn stored as several messages, not only the last message's", async () => {
    const store = open(fresh(), "s");
    await store.appendMessages([
      { sender: "user", text: "do two things" },
      { sender: "agent", text: "", tool_calls: [{ tool_name: "first", id: "c1", input_args: {} }] },
      { sender: "agent", text: "", tool_calls: [{ tool_name: "second", id: "c2", input_args: {} }] },
    ]);
    await store.appendMessages([{ sender: "user", text: "are you there?" }]);
    const repaired = (await store.getMessages())[3]!;
    expect(repaired.tool_results?.map((r) => [r.call_id, r.result.status])).toEqual([
      ["c1", "aborted"],
      ["c2", "aborted"],
    ]);
  });

  it("can leave interrupted tool calls alone when asked", async () => {
    const dbPath = fresh();
    const store = new SqliteStore({ dbPath, sessionId: "s", repairInterruptedToolCalls: false });
    opened.push(store);
    await store.appendMessages([
      { sender: "agent", text: "", tool_calls: [{ tool_name: "t", id: "c", input_args: {} }] },
    ]);
    await store.appendMessages([{ sender: "user", text: "next" }]);
    expect(await store.messageCount()).toBe(2);
  });

  it("persists sub-stores under their namespace, with their parent recorded", async () => {
    const dbPath = fresh();
    const store = open(dbPath, "parent");
    const durable = await store.createSubAgentStore("planner", true);
    const ephemeral = await store.createSubAgentStore("reviewer");
    expect(durable.identifier).toBe("parent::planner");
    expect(ephemeral.identifier).toMatch(/^parent::reviewer~[0-9a-f-]{36}$/);
    await durable.appendMessages([{ sender: "user", text: "plan" }]);
    await durable.addTasks!([{ id: "p1", content: "c", activeForm: "a", status: "pending" }]);
    const rows = raw(dbPath)
      .prepare("SELECT session_id, parent_id, namespace, durable FROM glove_sessions ORDER BY session_id")
      .all();
    expect(rows).toEqual([
      { session_id: "parent", parent_id: null, namespace: null, durable: null },
      { session_id: "parent::planner", parent_id: "parent", namespace: "planner", durable: 1 },
      { session_id: ephemeral.identifier, parent_id: "parent", namespace: "reviewer", durable: 0 },
    ]);
    const again = await open(dbPath, "parent").createSubAgentStore("planner", true);
    expect(await again.getTasks!()).toEqual([{ id: "p1", content: "c", activeForm: "a", status: "pending" }]);
  });

  it("keeps hostile strings as data (parameterised SQL)", async () => {
    const dbPath = fresh();
    const evil = `x'); DROP TABLE glove_messages; --`;
    const store = open(dbPath, evil);
    await store.appendMessages([{ sender: "user", text: evil }]);
    await store.setPermission(evil, "granted");
    await store.addInboxItem({
      id: evil,
      tag: evil,
      request: evil,
      response: null,
      status: "pending",
      blocking: true,
      created_at: evil,
      resolved_at: null,
    });
    expect(await open(dbPath, evil).getMessages()).toEqual([{ sender: "user", text: evil }]);
    expect(await store.getPermission(evil)).toBe("granted");
    expect((await store.getInboxItems())[0]?.request).toBe(evil);
  });

  it("shares one handle between sessions without closing it", async () => {
    const db = new BetterSqlite3(":memory:");
    opened.push(db);
    fresh();
    const a = new SqliteStore({ database: db, sessionId: "a" });
    const b = new SqliteStore({ database: db, sessionId: "b" });
    await a.appendMessages([{ sender: "user", text: "hi" }]);
    a.close();
    expect(await b.getMessages()).toEqual([]);
    expect(await new SqliteStore({ database: db, sessionId: "a" }).getMessages()).toEqual([
      { sender: "user", text: "hi" },
    ]);
  });

  it("rejects bad options clearly", () => {
    fresh();
    expect(() => new SqliteStore({ sessionId: "", dbPath: ":memory:" })).toThrow(
      /sessionId must be a non-empty string/,
    );
    expect(() => new SqliteStore({ sessionId: "s" })).toThrow(/SqliteStore session "s": pass dbPath/);
  });
});

describe("SqliteStore configuration errors", () => {
  it("names the path when the file's folder does not exist", () => {
    const path = join(tmpdir(), `glove-missing-${process.pid}`, "nested", "chat.db");
    let error: unknown;
    try {
      new SqliteStore({ dbPath: path, sessionId: "s" });
    } catch (caught) {
      error = caught;
    }
    expect(GloveError.isInstance(error) && error.code).toBe("GLOVE_CONFIGURATION");
    expect((error as Error).message).toContain(path);
  });

  it("asks for dbPath or database with a ConfigurationError", () => {
    expect(() => new SqliteStore({ sessionId: "s" })).toThrow(/pass dbPath/);
    expect(() => new SqliteStore({ sessionId: "s" })).not.toThrow(TypeError);
  });
});
