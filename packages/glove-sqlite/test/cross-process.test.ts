import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ScriptedModel } from "glove-core/testing";
import { INTERRUPTED_TOOL_MESSAGE, SqliteStore } from "../src/index.js";
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
import { expectWholeModelCalls, killWhileRecording } from "../../../test-support/model-call-crash.js";
import { SLOW_WORK_MS } from "../../../test-support/timeouts.js";

// Child processes run the built packages (node cannot load the TypeScript sources).
const fixtures = fileURLToPath(new URL("./fixtures/", import.meta.url));
const dir = mkdtempSync(join(tmpdir(), "glove-sqlite-xproc-"));
beforeAll(() => buildForChildProcesses("packages/glove-sqlite"), SLOW_WORK_MS);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("SqliteStore across processes", () => {
  it("two processes appending to one conversation at once neither interleave a batch nor lose a message", async () => {
    const dbPath = join(dir, "shared.db");
    new SqliteStore({ dbPath, sessionId: "shared-log" }).close(); // create the schema once, up front
    const BATCHES = 1500;
    const startAt = String(Date.now() + 1500);
    const run = (writer: string) =>
      runNode(join(fixtures, "append-batches.mjs"), [dbPath, "shared-log", writer, String(BATCHES), startAt]);
    const results = await Promise.all([run("A"), run("B")]);
    for (const r of results) expect(r, r.out).toMatchObject({ code: 0, out: "DONE\n" });

    const store = new SqliteStore({ dbPath, sessionId: "shared-log" });
    const texts = (await store.getMessages()).map((m) => m.text);
    expectBatchesIntact(texts, BATCHES);
    expect(await store.messageCount()).toBe(2 * BATCHES * 3);
    store.close();
  });

  it("two processes settling the same questions at once: each question has exactly one winner, whose answer is stored", async () => {
    const dbPath = join(dir, "waits.db");
    const COUNT = 300;
    const setup = new SqliteStore({ dbPath, sessionId: "answers" });
    for (let i = 0; i < COUNT; i++) {
      await setup.addWait({
        id: `q${i}`,
        kind: "question",
        toolCallId: "c1",
        toolName: "ask",
        position: i,
        renderer: "confirm",
        input: null,
        status: "pending",
        created_at: new Date().toISOString(),
        settled_at: null,
      });
    }
    setup.close();
    const startAt = String(Date.now() + 1500);
    const run = (writer: string) =>
      runNode(join(fixtures, "settle-waits.mjs"), [dbPath, "answers", writer, String(COUNT), startAt]);
    const [a, b] = await Promise.all([run("A"), run("B")]);
    for (const r of [a, b]) expect(r.code, r.out).toBe(0);
    const wonBy = (out: string) =>
      new Set(
        out
          .split("\n")
          .filter((line) => line.endsWith(" won"))
          .map((line) => line.split(" ")[0]),
      );
    const [byA, byB] = [wonBy(a.out), wonBy(b.out)];
    expect(byA.size + byB.size).toBe(COUNT);
    const store = new SqliteStore({ dbPath, sessionId: "answers" });
    for (const wait of await store.getWaits()) {
      expect(wait.status).toBe("resolved");
      expect(byA.has(wait.id) !== byB.has(wait.id)).toBe(true);
      expect(wait.value).toBe(byA.has(wait.id) ? "A" : "B");
    }
    store.close();
  });

  it("injects an inbox item resolved by another node process into the next request", async () => {
    const dbPath = join(dir, "inbox.db");
    const store = new SqliteStore({ dbPath, sessionId: "cafe" });
    await expectInboxAnswerReachesNextRequest(store, (itemId) =>
      expectNodeOutput(
        join(fixtures, "resolve-inbox.mjs"),
        [dbPath, "cafe", itemId, "Back in stock Tuesday."],
        "RESOLVED\n",
        SLOW_WORK_MS,
      ),
    );
    store.close();
  });

  it(
    "processes killed with SIGKILL while recording model calls leave every call whole: its messages, tokens and turn, or none of them",
    { timeout: SLOW_WORK_MS },
    async () => {
      const dbPath = join(dir, "model-calls.db");
      let turns = 0;
      for (const afterMs of [0, 7, 23]) {
        await killWhileRecording(join(fixtures, "record-model-calls.mjs"), [dbPath, "calls"], afterMs);
        const store = new SqliteStore({ dbPath, sessionId: "calls" });
        const now = await expectWholeModelCalls(store);
        expect(now).toBeGreaterThan(turns); // the next process went on from where the last one stopped
        turns = now;
        store.close();
      }
    },
  );

  it("a process killed with SIGKILL mid-tool leaves a conversation the next process continues with no orphaned tool call", async () => {
    const dbPath = join(dir, "killed.db");
    await killWhileToolRuns(join(fixtures, "run-until-killed.mjs"), [dbPath, "report-job"]);

    // A new process (here: this one, with its own connection) opens the same conversation.
    const store = new SqliteStore({ dbPath, sessionId: "report-job" });
    const before = await store.getMessages();
    expect(before.map((m) => m.sender)).toEqual(["user", "agent"]);
    expect(before[1]?.tool_calls?.[0]?.tool_name).toBe("export_report");

    const model = new ScriptedModel([{ text: "The export was interrupted; shall I retry?" }]);
    const result = await makeAgent(store, model).processRequest("Did the export finish?");
    expect("messages" in result && result.messages[0]?.text).toBe("The export was interrupted; shall I retry?");

    const seen = model.requests[0]!.messages;
    expectNoOrphanedToolCalls(seen);
    expect(seen[2]?.tool_results?.[0]?.result).toEqual({
      status: "aborted",
      data: null,
      message: INTERRUPTED_TOOL_MESSAGE,
    });
    expect(seen.at(-1)?.text).toBe("Did the export finish?");
    expectNoOrphanedToolCalls(await store.getMessages());
    store.close();
  });
});
