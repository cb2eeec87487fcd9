import { join } from "node:path";
import { fileURLToPath } from "node:url";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GloveError } from "glove-core";
import { ScriptedModel, storeConformanceCases } from "glove-core/testing";
import { INTERRUPTED_TOOL_MESSAGE, PostgresStore, PostgresStoreError, SCHEMA_VERSION } from "../src/index.js";
import { PG_URL, pgProblem, uniqueSchema } from "./pg-env.js";
import {
  expectInboxAnswerReachesNextRequest,
  expectNoOrphanedToolCalls,
  makeCoffeeAgent as makeAgent,
} from "../../../test-support/coffee-agent.js";
import {
  buildForChildProcesses,
  expectBatchesIntact,
  expectNodeOutput,
  killWhileToolRuns,
  runNode,
} from "../../../test-support/child-processes.js";
import { checkParityWithMemoryStore } from "../../glove-core/test/stores/store-parity.js";
import { expectLateResultRefused } from "../../../test-support/late-writer.js";
import { expectWholeModelCalls, killWhileRecording } from "../../../test-support/model-call-crash.js";
import { SLOW_WORK_MS } from "../../../test-support/timeouts.js";
import { statementsDuring } from "../../../test-support/pg-statements.js";

const problem = await pgProblem();
const enabled = problem === undefined;
if (!enabled && process.env.CI !== "true") {
  console.warn(
    `glove-postgres tests skipped: no PostgreSQL at ${PG_URL} (${problem}); start one, or set GLOVE_PG_URL, to run them.`,
  );
}

// Under CI a missing server is a failure, not a skip.
if (!enabled && process.env.CI === "true") {
  describe("PostgreSQL for the glove-postgres tests", () => {
    it("is reachable", () => {
      throw new Error(`no PostgreSQL at ${PG_URL} (${problem}); CI needs it (set GLOVE_PG_URL or start the server).`);
    });
  });
}

const fixtures = fileURLToPath(new URL("./fixtures/", import.meta.url));
const schema = uniqueSchema("pg");
let pool: pg.Pool;

beforeAll(() => {
  if (!enabled) return;
  pool = new pg.Pool({ connectionString: PG_URL, max: 8 });
});
afterAll(async () => {
  if (!enabled) return;
  await pool.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  await pool.end();
});

describe.runIf(enabled)("PostgresStore conformance", () => {
  // Every createStore opens its own pool, as a second process would.
  let open: PostgresStore[] = [];
  const cases = storeConformanceCases({
    createStore: async (sessionId) => {
      const store = await PostgresStore.open({ connectionString: PG_URL, schema, sessionId });
      open.push(store);
      return store;
    },
    cleanup: async () => {
      await Promise.all(open.map((s) => s.close()));
      open = [];
    },
    require: [
      "tasks",
      "replaceTasks",
      "permissions",
      "inbox",
      "consumeInboxItem",
      "waits",
      "subAgentStores",
      "messageCount",
      "messagesSinceLastCompaction",
      "messagePage",
      "branches",
      "recordModelCall",
    ],
  });
  for (const c of cases) it(c.name, c.run);
});

describe.runIf(enabled)("PostgresStore agrees with MemoryStore (fast-check)", () => {
  it("random operations with valid and invalid arguments: same outcome, same state after each", async () => {
    await checkParityWithMemoryStore(
      async (sessionId) => PostgresStore.open({ pool, schema, sessionId }),
      Number(process.env.GLOVE_FUZZ_RUNS ?? 60),
    );
  }, 180_000);
});

describe.runIf(enabled)("PostgresStore", () => {
  it("refuses a newer schema version with an error naming the session, and changes nothing", async () => {
    const own = uniqueSchema("ver");
    try {
      const store = await PostgresStore.open({ pool, schema: own, sessionId: "s" });
      await store.appendMessages([{ sender: "user", text: "keep me" }]);
      await pool.query(`UPDATE "${own}".glove_schema_version SET version = $1`, [SCHEMA_VERSION + 1]);
      const error = await PostgresStore.open({ connectionString: PG_URL, schema: own, sessionId: "customer-42" }).catch(
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(PostgresStoreError);
      expect(GloveError.isInstance(error)).toBe(true);
      expect((error as Error).message).toMatch(
        new RegExp(
          `^PostgresStore session "customer-42": schema ${own} has schema version ${SCHEMA_VERSION + 1}, newer than this glove-postgres supports.*Nothing was changed`,
        ),
      );
      expect((await pool.query(`SELECT body FROM "${own}".glove_messages`)).rows).toEqual([
        { body: JSON.stringify({ sender: "user", text: "keep me" }) },
      ]);
    } finally {
      await pool.query(`DROP SCHEMA IF EXISTS "${own}" CASCADE`);
    }
  });

  it("reports a corrupt message row with the session and row, and leaves it in place", async () => {
    const store = await PostgresStore.open({ pool, schema, sessionId: "chat-7" });
    await store.appendMessages([
      { sender: "user", text: "one" },
      { sender: "agent", text: "two" },
    ]);
    await pool.query(`UPDATE "${schema}".glove_messages SET body = $1 WHERE session_id = $2 AND seq = 1`, [
      "{oops",
      "chat-7",
    ]);
    await expect(store.getMessages()).rejects.toThrow(
      /^PostgresStore session "chat-7": message 1 in .* is corrupt: the body is not valid JSON/,
    );
    await expect(store.getMessagesSinceLastCompaction()).rejects.toThrow(/session "chat-7".*corrupt/);
    await expect(store.appendMessages([{ sender: "user", text: "three" }])).rejects.toThrow(
      /session "chat-7".*message 1 .*corrupt/,
    );
    expect(
      (await pool.query(`SELECT count(*)::int AS n FROM "${schema}".glove_messages WHERE session_id = 'chat-7'`)).rows,
    ).toEqual([{ n: 2 }]);
  });

  it("a ready store reads a page in one statement (a Glove's cached-view check, before every model call)", async () => {
    const own = new pg.Pool({ connectionString: PG_URL, max: 2 });
    try {
      const store = await PostgresStore.open({ pool: own, schema, sessionId: "page-check" });
      await store.appendMessages([
        { sender: "user", text: "one", id: "a" },
        { sender: "agent", text: "two", id: "b" },
      ]);
      const statements: string[] = [];
      const query = own.query.bind(own) as (...args: unknown[]) => unknown;
      own.query = ((...args: unknown[]) => {
        statements.push(String(args[0]));
        return query(...args);
      }) as typeof own.query;
      expect(await store.getMessagePage(1, 1)).toEqual({
        messages: [expect.objectContaining({ id: "b", text: "two" })],
        total: 2,
      });
      expect(await store.getMessagePage(5, 1)).toEqual({ messages: [], total: 2 });
      await expect(store.getMessagePage(0, 0)).rejects.toMatchObject({ code: "GLOVE_STORE_INVALID" });
      expect(statements).toHaveLength(2);
    } finally {
      await own.end();
    }
  });

  it("an append locks the session row in one statement, and recreates a row deleted while the store was open", async () => {
    const own = new pg.Pool({ connectionString: PG_URL, max: 2 });
    try {
      const store = await PostgresStore.open({ pool: own, schema, sessionId: "one-lock" });
      await store.appendMessages([{ sender: "user", text: "zero", id: "z" }]); // the first write makes the row
      const statements = await statementsDuring(() => store.appendMessages([{ sender: "user", text: "one", id: "a" }]));
      expect(statements.filter((sql) => sql.includes("INSERT INTO") && sql.includes("glove_sessions"))).toEqual([]);
      expect(statements.filter((sql) => sql.includes("FOR UPDATE"))).toHaveLength(1);
      // Another process purges the row (and the messages) while this store is open.
      await own.query(`DELETE FROM ${schema}.glove_messages WHERE session_id = $1`, ["one-lock"]);
      await own.query(`DELETE FROM ${schema}.glove_sessions WHERE session_id = $1`, ["one-lock"]);
      await store.appendMessages([{ sender: "user", text: "two", id: "b" }]);
      expect((await store.getMessages()).map((m) => m.text)).toEqual(["two"]);
      expect(await store.getMessagePage(0, 5)).toMatchObject({ total: 1 });
    } finally {
      await own.end();
    }
  });

  it("opening a conversation's store costs no query once the schema is migrated; its first write of any kind makes the row", async () => {
    const own = new pg.Pool({ connectionString: PG_URL, max: 2 });
    try {
      await PostgresStore.open({ pool: own, schema, sessionId: "migrates-the-pool" });
      const sessionIds = [
        "lazy-append",
        "lazy-tokens",
        "lazy-turn",
        "lazy-reset",
        "lazy-tasks",
        "lazy-inbox",
        "lazy-permission",
        "lazy-call",
      ];
      const opened = await Promise.all(
        sessionIds.map((sessionId) => statementsDuring(() => PostgresStore.open({ pool: own, schema, sessionId }))),
      );
      expect(opened.flat()).toEqual([]);
      const stores = await Promise.all(
        sessionIds.map((sessionId) => PostgresStore.open({ pool: own, schema, sessionId })),
      );
      const [append, tokens, turn, reset, tasks, inbox, permission, call] = stores as [
        PostgresStore,
        PostgresStore,
        PostgresStore,
        PostgresStore,
        PostgresStore,
        PostgresStore,
        PostgresStore,
        PostgresStore,
      ];
      // Never written: reads as an empty session.
      expect(await append.getMessages()).toEqual([]);
      expect(await append.messageCount()).toBe(0);
      expect(await append.getMessagePage(0, 10)).toEqual({ messages: [], total: 0 });
      expect(await append.getTokenCount()).toBe(0);
      expect(await append.getTurnCount()).toBe(0);
      const rows = async (id: string) =>
        (
          await own.query(
            `SELECT message_count, tokens_in, turns FROM "${schema}".glove_sessions WHERE session_id = $1`,
            [id],
          )
        ).rows;
      expect(await rows("lazy-append")).toEqual([]);
      await append.appendMessages([{ sender: "user", text: "hi", id: "m1" }]);
      await tokens.addTokens({ tokens_in: 3, tokens_out: 4 });
      await turn.incrementTurn();
      await reset.resetCounters();
      await tasks.addTasks?.([{ id: "t1", content: "x", activeForm: "xing", status: "pending" }]);
      await inbox.addInboxItem?.({
        id: "i1",
        tag: "ask",
        request: "?",
        response: null,
        status: "pending",
        blocking: false,
        created_at: "2026-01-01T00:00:00.000Z",
        resolved_at: null,
      });
      await permission.setPermission?.("tool", "granted");
      await call.recordModelCall?.({
        messages: [{ sender: "agent", text: "ok", id: "a1" }],
        tokens: { tokens_in: 1, tokens_out: 2 },
      });
      expect(await rows("lazy-append")).toEqual([{ message_count: 1, tokens_in: "0", turns: 0 }]);
      expect(await tokens.getTokenCount()).toBe(7);
      expect(await turn.getTurnCount()).toBe(1);
      expect(await reset.getTokenCount()).toBe(0);
      expect(await tasks.getTasks?.()).toHaveLength(1);
      expect(await inbox.getInboxItems?.()).toHaveLength(1);
      expect(await permission.getPermission?.("tool")).toBe("granted");
      expect((await call.getMessages()).map((m) => m.text)).toEqual(["ok"]);
    } finally {
      await own.end();
    }
  });

  it("reports corrupt inbox, task and permission rows with the session", async () => {
    // Its own schema: the test drops CHECK constraints to write what a hand edit could.
    const own = uniqueSchema("corrupt");
    try {
      const store = await PostgresStore.open({ pool, schema: own, sessionId: "chat-8" });
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
      await store.setPermission("tool", "granted");
      for (const table of ["glove_inbox", "glove_tasks", "glove_permissions"]) {
        const { rows } = await pool.query(
          "SELECT conname FROM pg_constraint WHERE conrelid = $1::regclass AND contype = 'c'",
          [`"${own}".${table}`],
        );
        for (const r of rows) await pool.query(`ALTER TABLE "${own}".${table} DROP CONSTRAINT "${r.conname}"`);
      }
      await pool.query(`UPDATE "${own}".glove_inbox SET status = 'lost'`);
      await pool.query(`UPDATE "${own}".glove_tasks SET status = 'later'`);
      await pool.query(`UPDATE "${own}".glove_permissions SET status = 'maybe'`);
      await expect(store.getInboxItems()).rejects.toThrow(
        /^PostgresStore session "chat-8": inbox item "i1" is corrupt/,
      );
      await expect(store.getTasks()).rejects.toThrow(/^PostgresStore session "chat-8": task "t1" is corrupt/);
      await expect(store.getPermission("tool")).rejects.toThrow(
        /^PostgresStore session "chat-8": the permission of "tool" is corrupt/,
      );
    } finally {
      await pool.query(`DROP SCHEMA IF EXISTS "${own}" CASCADE`);
    }
  });

  it("persists sub-stores under their namespace, with their parent recorded", async () => {
    const parent = await PostgresStore.open({ pool, schema, sessionId: "parent" });
    const durable = await parent.createSubAgentStore("planner", true);
    const ephemeral = await parent.createSubAgentStore("reviewer");
    expect(durable.identifier).toBe("parent::planner");
    expect(ephemeral.identifier).toMatch(/^parent::reviewer~[0-9a-f-]{36}$/);
    const { rows } = await pool.query(
      `SELECT session_id, parent_id, namespace, durable FROM "${schema}".glove_sessions WHERE parent_id = 'parent' ORDER BY namespace`,
    );
    expect(rows).toEqual([
      { session_id: "parent::planner", parent_id: "parent", namespace: "planner", durable: true },
      { session_id: ephemeral.identifier, parent_id: "parent", namespace: "reviewer", durable: false },
    ]);
  });

  it("rejects unsafe schema names and missing connection options", () => {
    expect(() => new PostgresStore({ pool, schema: 'x"; DROP TABLE y; --', sessionId: "s" })).toThrow(
      /is not a plain identifier/,
    );
    expect(() => new PostgresStore({ sessionId: "s" })).toThrow(
      /PostgresStore session "s": pass a pool \(a pg\.Pool\) or a connectionString/,
    );
  });

  it("keeps hostile strings as data (parameterised SQL)", async () => {
    const evil = `x'); DROP TABLE glove_messages; --`;
    const store = await PostgresStore.open({ pool, schema, sessionId: evil });
    await store.appendMessages([{ sender: "user", text: evil }]);
    await store.setPermission(evil, "granted");
    expect(await store.getMessages()).toEqual([{ sender: "user", text: evil }]);
    expect(await store.getPermission(evil)).toBe("granted");
  });
});

describe.runIf(enabled)("PostgresStore across processes", () => {
  beforeAll(() => buildForChildProcesses("packages/glove-postgres"), 180_000);

  it("two processes appending to one conversation at once neither interleave a batch nor lose a message", async () => {
    const startAt = String(Date.now() + 1500);
    const run = (writer: string) =>
      runNode(join(fixtures, "append-batches.mjs"), [PG_URL, schema, "shared-log", writer, "150", startAt]);
    const results = await Promise.all([run("A"), run("B")]);
    for (const r of results) expect(r, r.out).toMatchObject({ code: 0, out: "DONE\n" });

    const store = await PostgresStore.open({ pool, schema, sessionId: "shared-log" });
    const texts = (await store.getMessages()).map((m) => m.text);
    expectBatchesIntact(texts, 150);
    expect(await store.messageCount()).toBe(900);
    const seqs = (
      await pool.query(`SELECT seq FROM "${schema}".glove_messages WHERE session_id = 'shared-log' ORDER BY seq`)
    ).rows.map((r) => r.seq);
    expect(seqs).toEqual(Array.from({ length: 900 }, (_, i) => i));
  });

  it("injects an inbox item resolved by another node process into the next request", async () => {
    const store = await PostgresStore.open({ pool, schema, sessionId: "cafe" });
    await expectInboxAnswerReachesNextRequest(store, (itemId) =>
      expectNodeOutput(
        join(fixtures, "resolve-inbox.mjs"),
        [PG_URL, schema, "cafe", itemId, "Back in stock Tuesday."],
        "RESOLVED\n",
        60_000,
      ),
    );
  });

  it("a slow writer's results for a call another process already answered are refused, never stored twice", async () => {
    const a = await PostgresStore.open({ pool, schema, sessionId: "late-writer" });
    const b = await PostgresStore.open({ pool, schema, sessionId: "late-writer" });
    await expectLateResultRefused(a, b);
  });

  it("answers every call of an interrupted turn stored as several messages, not only the last message's", async () => {
    const store = await PostgresStore.open({ pool, schema, sessionId: "multi-message-turn" });
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

  it(
    "processes killed with SIGKILL while recording model calls leave every call whole: its messages, tokens and turn, or none of them",
    { timeout: SLOW_WORK_MS },
    async () => {
      let turns = 0;
      for (const afterMs of [0, 7, 23]) {
        await killWhileRecording(join(fixtures, "record-model-calls.mjs"), [PG_URL, schema, "model-calls"], afterMs);
        const store = await PostgresStore.open({ pool, schema, sessionId: "model-calls" });
        const now = await expectWholeModelCalls(store);
        expect(now).toBeGreaterThan(turns);
        turns = now;
      }
    },
  );

  it("a recordModelCall fenced by beforeAppend writes nothing: no message, no tokens, no turn", async () => {
    let fenced = false;
    const beforeAppend = async () => {
      if (fenced) throw new Error("fenced: another writer holds this conversation");
    };
    const store = await PostgresStore.open({ pool, schema, sessionId: "fenced-model-call", beforeAppend });
    await store.recordModelCall({
      messages: [{ sender: "agent", text: "first" }],
      tokens: { tokens_in: 2, tokens_out: 1 },
    });
    fenced = true;
    await expect(
      store.recordModelCall({
        messages: [{ sender: "agent", text: "zombie" }],
        tokens: { tokens_in: 5, tokens_out: 5 },
      }),
    ).rejects.toThrow(/fenced/);
    const reader = await PostgresStore.open({ pool, schema, sessionId: "fenced-model-call" });
    expect((await reader.getMessages()).map((m) => m.text)).toEqual(["first"]);
    expect([await reader.getTokenCount(), await reader.getTurnCount()]).toEqual([3, 1]);
  });

  it("a writerFence refuses a replaced writer's appends, model calls, branch rewrites and sub-store appends in the locking statement, writing nothing", async () => {
    const fences = `${schema}.test_writer_fences`;
    await pool.query(`CREATE SCHEMA IF NOT EXISTS ${schema}`);
    await pool.query(`CREATE TABLE IF NOT EXISTS ${fences} (conversation_id TEXT PRIMARY KEY, writer BIGINT NOT NULL)`);
    await pool.query(`INSERT INTO ${fences} VALUES ('fenced-writer', 1)`);
    class Refused extends Error {}
    let told = true;
    const fenceOf = (writer: number) => ({
      table: fences,
      keyColumn: "conversation_id",
      key: "fenced-writer",
      writer,
      holds: () => told,
      refuse: () => new Refused(`writer ${writer} was replaced`),
    });
    const first = await PostgresStore.open({ pool, schema, sessionId: "fenced-writer", writerFence: fenceOf(1) });
    const sub = await first.createSubAgentStore("helper", { durable: true });
    await first.appendMessages([{ sender: "user", text: "zero", id: "u0" }]); // the first write makes the session row
    const statements = await statementsDuring(() => first.appendMessages([{ sender: "user", text: "one", id: "u1" }]));
    // The fence is read by the locking statement: no statement of its own.
    expect(statements.filter((sql) => sql.includes("test_writer_fences"))).toHaveLength(1);
    expect(statements.find((sql) => sql.includes("test_writer_fences"))).toMatch(/FOR UPDATE/);
    await sub.appendMessages([{ sender: "user", text: "sub one" }]);
    // Another writer takes over.
    await pool.query(`UPDATE ${fences} SET writer = 2 WHERE conversation_id = 'fenced-writer'`);
    const second = await PostgresStore.open({ pool, schema, sessionId: "fenced-writer", writerFence: fenceOf(2) });
    await expect(first.appendMessages([{ sender: "agent", text: "zombie" }])).rejects.toBeInstanceOf(Refused);
    await expect(
      first.recordModelCall({
        messages: [{ sender: "agent", text: "zombie call" }],
        tokens: { tokens_in: 5, tokens_out: 5 },
      }),
    ).rejects.toThrow(/writer 1 was replaced/);
    await expect(sub.appendMessages([{ sender: "agent", text: "zombie sub" }])).rejects.toBeInstanceOf(Refused);
    await expect(
      first.rewriteBranches!({
        expected: { count: 2, lastId: "u1" },
        keep: 0,
        remove: [],
        add: [],
        append: [{ sender: "user", text: "edit" }],
      }),
    ).rejects.toBeInstanceOf(Refused);
    await second.recordModelCall({
      messages: [{ sender: "agent", text: "two" }],
      tokens: { tokens_in: 2, tokens_out: 1 },
    });
    // Told elsewhere that it lost its turn: refused although the row still names it.
    told = false;
    await expect(second.appendMessages([{ sender: "agent", text: "late" }])).rejects.toBeInstanceOf(Refused);
    const reader = await PostgresStore.open({ pool, schema, sessionId: "fenced-writer" });
    expect((await reader.getMessages()).map((m) => m.text)).toEqual(["zero", "one", "two"]);
    expect([await reader.getTokenCount(), await reader.getTurnCount()]).toEqual([3, 1]);
  });

  it("refuses a writerFence whose table or column is not a plain identifier", () => {
    const fence = {
      table: "x; DROP TABLE y",
      keyColumn: "conversation_id",
      key: "k",
      writer: 1,
      refuse: () => new Error("no"),
    };
    expect(() => new PostgresStore({ pool, schema, sessionId: "bad-fence", writerFence: fence })).toThrow(
      /writerFence needs table/,
    );
    expect(
      () =>
        new PostgresStore({
          pool,
          schema,
          sessionId: "bad-fence",
          writerFence: { ...fence, table: "t", keyColumn: "a b" },
        }),
    ).toThrow(GloveError);
  });

  it("a process killed with SIGKILL mid-tool leaves a conversation the next process continues with no orphaned tool call", async () => {
    await killWhileToolRuns(join(fixtures, "run-until-killed.mjs"), [PG_URL, schema, "report-job"]);

    const store = await PostgresStore.open({ pool, schema, sessionId: "report-job" });
    expect((await store.getMessages()).map((m) => m.sender)).toEqual(["user", "agent"]);
    const model = new ScriptedModel([{ text: "The export was interrupted; shall I retry?" }]);
    await makeAgent(store, model).processRequest("Did the export finish?");
    const seen = model.requests[0]!.messages;
    expectNoOrphanedToolCalls(seen);
    expect(seen[2]?.tool_results?.[0]?.result).toEqual({
      status: "aborted",
      data: null,
      message: INTERRUPTED_TOOL_MESSAGE,
    });
    expect(seen.at(-1)?.text).toBe("Did the export finish?");
  });
});

describe("PostgresStore configuration errors", () => {
  it.each([
    ["mysql://root@127.0.0.1/test", /"mysql:\/\/" is not a PostgreSQL URL/],
    ["postgres://user:p@ss@:bad:port/db", /not a valid URL/],
    ["just some words", /neither a postgres:\/\/ URL nor/],
  ])("refuses %s with a ConfigurationError that says what is expected", (connectionString, message) => {
    let error: unknown;
    try {
      new PostgresStore({ connectionString, sessionId: "s" });
    } catch (caught) {
      error = caught;
    }
    expect(GloveError.isInstance(error) && error.code).toBe("GLOVE_CONFIGURATION");
    expect((error as Error).message).toMatch(message);
    expect((error as Error).message).toMatch(/postgres:\/\/user:password@host:5432\/database/);
  });

  it("asks for a pool or a connectionString", () => {
    expect(() => new PostgresStore({ sessionId: "s" })).toThrow(/pass a pool \(a pg\.Pool\) or a connectionString/);
  });
});
