import { execFileSync, spawn, spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Displaymanager, GloveError, Glove, type Message } from "glove-core";
import { ScriptedModel, storeConformanceCases } from "glove-core/testing";
import { INTERRUPTED_TOOL_MESSAGE, PostgresStore, PostgresStoreError, SCHEMA_VERSION } from "../src/index.js";
import { PG_URL, pgProblem, uniqueSchema } from "./pg-env.js";

const problem = await pgProblem();
const enabled = problem === undefined;
if (!enabled && process.env.CI !== "true") {
  console.warn(`glove-postgres tests skipped: no PostgreSQL at ${PG_URL} (${problem}); start one, or set GLOVE_PG_URL, to run them.`);
}

// Under CI a missing server is a failure, not a skip.
if (!enabled && process.env.CI === "true") {
  describe("PostgreSQL for the glove-postgres tests", () => {
    it("is reachable", () => {
      throw new Error(`no PostgreSQL at ${PG_URL} (${problem}); CI needs it (set GLOVE_PG_URL or start the server).`);
    });
  });
}

const root = fileURLToPath(new URL("../../..", import.meta.url));
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
    require: ["tasks", "replaceTasks", "permissions", "inbox", "subAgentStores", "messageCount", "messagesSinceLastCompaction"],
  });
  for (const c of cases) it(c.name, c.run);
});

describe.runIf(enabled)("PostgresStore", () => {
  it("refuses a newer schema version with an error naming the session, and changes nothing", async () => {
    const own = uniqueSchema("ver");
    try {
      const store = await PostgresStore.open({ pool, schema: own, sessionId: "s" });
      await store.appendMessages([{ sender: "user", text: "keep me" }]);
      await pool.query(`UPDATE "${own}".glove_schema_version SET version = $1`, [SCHEMA_VERSION + 1]);
      const error = await PostgresStore.open({ connectionString: PG_URL, schema: own, sessionId: "customer-42" }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(PostgresStoreError);
      expect(GloveError.isInstance(error)).toBe(true);
      expect((error as Error).message).toMatch(
        new RegExp(`^PostgresStore session "customer-42": schema ${own} has schema version ${SCHEMA_VERSION + 1}, newer than this glove-postgres supports.*Nothing was changed`),
      );
      expect((await pool.query(`SELECT body FROM "${own}".glove_messages`)).rows).toEqual([{ body: JSON.stringify({ sender: "user", text: "keep me" }) }]);
    } finally {
      await pool.query(`DROP SCHEMA IF EXISTS "${own}" CASCADE`);
    }
  });

  it("reports a corrupt message row with the session and row, and leaves it in place", async () => {
    const store = await PostgresStore.open({ pool, schema, sessionId: "chat-7" });
    await store.appendMessages([{ sender: "user", text: "one" }, { sender: "agent", text: "two" }]);
    await pool.query(`UPDATE "${schema}".glove_messages SET body = $1 WHERE session_id = $2 AND seq = 1`, ["{oops", "chat-7"]);
    await expect(store.getMessages()).rejects.toThrow(/^PostgresStore session "chat-7": message 1 in .* is corrupt: the body is not valid JSON/);
    await expect(store.getMessagesSinceLastCompaction()).rejects.toThrow(/session "chat-7".*corrupt/);
    await expect(store.appendMessages([{ sender: "user", text: "three" }])).rejects.toThrow(/session "chat-7".*message 1 .*corrupt/);
    expect((await pool.query(`SELECT count(*)::int AS n FROM "${schema}".glove_messages WHERE session_id = 'chat-7'`)).rows).toEqual([{ n: 2 }]);
  });

  it("reports corrupt inbox, task and permission rows with the session", async () => {
    // Its own schema: the test drops CHECK constraints to write what a hand edit could.
    const own = uniqueSchema("corrupt");
    try {
      const store = await PostgresStore.open({ pool, schema: own, sessionId: "chat-8" });
      await store.addInboxItem({ id: "i1", tag: "t", request: "r", response: null, status: "pending", blocking: false, created_at: "2026-01-01T00:00:00Z", resolved_at: null });
      await store.addTasks([{ id: "t1", content: "c", activeForm: "a", status: "pending" }]);
      await store.setPermission("tool", "granted");
      for (const table of ["glove_inbox", "glove_tasks", "glove_permissions"]) {
        const { rows } = await pool.query("SELECT conname FROM pg_constraint WHERE conrelid = $1::regclass AND contype = 'c'", [`"${own}".${table}`]);
        for (const r of rows) await pool.query(`ALTER TABLE "${own}".${table} DROP CONSTRAINT "${r.conname}"`);
      }
      await pool.query(`UPDATE "${own}".glove_inbox SET status = 'lost'`);
      await pool.query(`UPDATE "${own}".glove_tasks SET status = 'later'`);
      await pool.query(`UPDATE "${own}".glove_permissions SET status = 'maybe'`);
      await expect(store.getInboxItems()).rejects.toThrow(/^PostgresStore session "chat-8": inbox item "i1" is corrupt/);
      await expect(store.getTasks()).rejects.toThrow(/^PostgresStore session "chat-8": task "t1" is corrupt/);
      await expect(store.getPermission("tool")).rejects.toThrow(/^PostgresStore session "chat-8": the permission of "tool" is corrupt/);
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
    expect(() => new PostgresStore({ pool, schema: 'x"; DROP TABLE y; --', sessionId: "s" })).toThrow(/must be a plain identifier/);
    expect(() => new PostgresStore({ sessionId: "s" })).toThrow(/PostgresStore session "s": pass a pool or a connectionString/);
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
  beforeAll(() => {
    if (!existsSync(join(root, "packages/glove-core/dist/index.js"))) {
      execFileSync("npx", ["tsc", "-b", "packages/glove-core"], { cwd: root, stdio: "pipe" });
    }
    execFileSync("npx", ["tsc", "-p", "packages/glove-postgres"], { cwd: root, stdio: "pipe" });
  }, 180_000);

  const node = (script: string, args: string[]) =>
    spawnSync(process.execPath, [join(fixtures, script), ...args], { cwd: root, encoding: "utf8", timeout: 60_000 });

  it("two processes appending to one conversation at once neither interleave a batch nor lose a message", async () => {
    const startAt = String(Date.now() + 1500);
    const run = (writer: string) =>
      new Promise<{ code: number | null; out: string }>((resolve) => {
        const child = spawn(process.execPath, [join(fixtures, "append-batches.mjs"), PG_URL, schema, "shared-log", writer, "150", startAt], { cwd: root });
        let out = "";
        child.stdout.on("data", (c: Buffer) => (out += c.toString()));
        child.stderr.on("data", (c: Buffer) => (out += c.toString()));
        child.on("exit", (code) => resolve({ code, out }));
      });
    const results = await Promise.all([run("A"), run("B")]);
    for (const r of results) expect(r, r.out).toMatchObject({ code: 0, out: "DONE\n" });

    const store = await PostgresStore.open({ pool, schema, sessionId: "shared-log" });
    const texts = (await store.getMessages()).map((m) => m.text);
    expect(texts).toHaveLength(2 * 150 * 3);
    expect(await store.messageCount()).toBe(900);
    const seqs = (await pool.query(`SELECT seq FROM "${schema}".glove_messages WHERE session_id = 'shared-log' ORDER BY seq`)).rows.map((r) => r.seq);
    expect(seqs).toEqual(Array.from({ length: 900 }, (_, i) => i));
    for (const writer of ["A", "B"]) {
      let last = -1;
      for (let i = 0; i < 150; i++) {
        const start = texts.indexOf(`${writer}:${i}:0`);
        expect(texts.slice(start, start + 3)).toEqual([`${writer}:${i}:0`, `${writer}:${i}:1`, `${writer}:${i}:2`]);
        expect(start).toBeGreaterThan(last);
        last = start;
      }
    }
    // Both writers really overlapped (otherwise this test proves little).
    const firstB = texts.indexOf("B:0:0");
    const lastA = texts.lastIndexOf("A:149:2");
    const firstA = texts.indexOf("A:0:0");
    const lastB = texts.lastIndexOf("B:149:2");
    expect(firstB < lastA && firstA < lastB).toBe(true);
  });

  it("injects an inbox item resolved by another node process into the next request", async () => {
    const store = await PostgresStore.open({ pool, schema, sessionId: "cafe" });
    const model = new ScriptedModel([
      { toolCalls: [{ name: "glove_post_to_inbox", input: { tag: "oat_milk", request: "When is oat milk back?", blocking: false } }] },
      { text: "I've asked; I'll let you know." },
      { text: "Good news: oat milk is back." },
    ]);
    const agent = makeAgent(store, model);
    await agent.processRequest("Do you have oat milk?");
    const [item] = await store.getInboxItems();
    expect(item?.status).toBe("pending");

    const child = node("resolve-inbox.mjs", [PG_URL, schema, "cafe", item!.id, "Back in stock Tuesday."]);
    expect(child.stderr).toBe("");
    expect(child.stdout).toBe("RESOLVED\n");

    await agent.processRequest("Any news?");
    const request = model.requests[2]!.messages;
    expect(request.some((m) => m.text.includes("Back in stock Tuesday."))).toBe(true);
    expect(request.at(-1)?.text).toBe("Any news?");
    expect((await store.getInboxItems())[0]?.status).toBe("consumed");
  });

  it("a process killed with SIGKILL mid-tool leaves a conversation the next process continues with no orphaned tool call", async () => {
    const child = spawn(process.execPath, [join(fixtures, "run-until-killed.mjs"), PG_URL, schema, "report-job"], { cwd: root, stdio: ["ignore", "pipe", "pipe"] });
    let stderr = "";
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`child never started its tool; stderr: ${stderr}`)), 30_000);
      child.stdout.on("data", (chunk: Buffer) => {
        if (chunk.toString().includes("TOOL_RUNNING")) {
          clearTimeout(timer);
          resolve();
        }
      });
      child.on("exit", (code) => reject(new Error(`child exited early (${code}); stderr: ${stderr}`)));
    });
    const exited = new Promise((resolve) => child.on("exit", (_code, signal) => resolve(signal)));
    child.kill("SIGKILL");
    expect(await exited).toBe("SIGKILL");

    const store = await PostgresStore.open({ pool, schema, sessionId: "report-job" });
    expect((await store.getMessages()).map((m) => m.sender)).toEqual(["user", "agent"]);
    const model = new ScriptedModel([{ text: "The export was interrupted; shall I retry?" }]);
    await makeAgent(store, model).processRequest("Did the export finish?");
    const seen = model.requests[0]!.messages;
    expectNoOrphanedToolCalls(seen);
    expect(seen[2]?.tool_results?.[0]?.result).toEqual({ status: "aborted", data: null, message: INTERRUPTED_TOOL_MESSAGE });
    expect(seen.at(-1)?.text).toBe("Did the export finish?");
  });
});

function makeAgent(store: PostgresStore, model: ScriptedModel) {
  return new Glove({
    store,
    model,
    displayManager: new Displaymanager(),
    systemPrompt: "You run a coffee shop.",
    compaction_config: { compaction_instructions: "Summarize." },
  }).build();
}

function expectNoOrphanedToolCalls(messages: readonly Message[]): void {
  messages.forEach((m, i) => {
    if (!m.tool_calls?.length) return;
    const answered = new Set(messages[i + 1]?.tool_results?.map((r) => r.call_id));
    for (const call of m.tool_calls) expect(answered.has(call.id), `tool call ${call.id} of message ${i} has no result`).toBe(true);
  });
}
