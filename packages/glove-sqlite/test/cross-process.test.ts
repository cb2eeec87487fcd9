import { execFileSync, spawn, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Displaymanager, Glove, type Message } from "glove-core";
import { ScriptedModel } from "glove-core/testing";
import { INTERRUPTED_TOOL_MESSAGE, SqliteStore } from "../src/index.js";

// Child processes run the built packages (node cannot load the TypeScript sources), so build this
// one first; glove-core's build is reused when present (`npm test` builds everything beforehand).
const root = fileURLToPath(new URL("../../..", import.meta.url));
const fixtures = fileURLToPath(new URL("./fixtures/", import.meta.url));
const dir = mkdtempSync(join(tmpdir(), "glove-sqlite-xproc-"));
beforeAll(() => {
  if (!existsSync(join(root, "packages/glove-core/dist/index.js"))) {
    execFileSync("npx", ["tsc", "-b", "packages/glove-core"], { cwd: root, stdio: "pipe" });
  }
  execFileSync("npx", ["tsc", "-p", "packages/glove-sqlite"], { cwd: root, stdio: "pipe" });
}, 180_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Every tool call is answered, for every call id, by the message right after it. */
function expectNoOrphanedToolCalls(messages: readonly Message[]): void {
  messages.forEach((m, i) => {
    if (!m.tool_calls?.length) return;
    const answered = new Set(messages[i + 1]?.tool_results?.map((r) => r.call_id));
    for (const call of m.tool_calls) expect(answered.has(call.id), `tool call ${call.id} of message ${i} has no result`).toBe(true);
  });
}

function makeAgent(store: SqliteStore, model: ScriptedModel) {
  return new Glove({
    store,
    model,
    displayManager: new Displaymanager(),
    systemPrompt: "You run a coffee shop.",
    compaction_config: { compaction_instructions: "Summarize." },
  }).build();
}

describe("SqliteStore across processes", () => {
  it("two processes appending to one conversation at once neither interleave a batch nor lose a message", async () => {
    const dbPath = join(dir, "shared.db");
    new SqliteStore({ dbPath, sessionId: "shared-log" }).close(); // create the schema once, up front
    const BATCHES = 1500;
    const startAt = String(Date.now() + 1500);
    const run = (writer: string) =>
      new Promise<{ code: number | null; out: string }>((resolve) => {
        const child = spawn(process.execPath, [join(fixtures, "append-batches.mjs"), dbPath, "shared-log", writer, String(BATCHES), startAt], { cwd: root });
        let out = "";
        child.stdout.on("data", (c: Buffer) => (out += c.toString()));
        child.stderr.on("data", (c: Buffer) => (out += c.toString()));
        child.on("exit", (code) => resolve({ code, out }));
      });
    const results = await Promise.all([run("A"), run("B")]);
    for (const r of results) expect(r, r.out).toMatchObject({ code: 0, out: "DONE\n" });

    const store = new SqliteStore({ dbPath, sessionId: "shared-log" });
    const texts = (await store.getMessages()).map((m) => m.text);
    expect(texts).toHaveLength(2 * BATCHES * 3);
    expect(await store.messageCount()).toBe(2 * BATCHES * 3);
    for (const writer of ["A", "B"]) {
      let last = -1;
      for (let i = 0; i < BATCHES; i++) {
        const start = texts.indexOf(`${writer}:${i}:0`);
        expect(texts.slice(start, start + 3)).toEqual([`${writer}:${i}:0`, `${writer}:${i}:1`, `${writer}:${i}:2`]);
        expect(start).toBeGreaterThan(last);
        last = start;
      }
    }
    // Both writers really overlapped (otherwise this test proves little).
    expect(texts.indexOf("B:0:0") < texts.lastIndexOf(`A:${BATCHES - 1}:2`) && texts.indexOf("A:0:0") < texts.lastIndexOf(`B:${BATCHES - 1}:2`)).toBe(true);
    store.close();
  });

  it("injects an inbox item resolved by another node process into the next request", async () => {
    const dbPath = join(dir, "inbox.db");
    const store = new SqliteStore({ dbPath, sessionId: "cafe" });
    const model = new ScriptedModel([
      { toolCalls: [{ name: "glove_post_to_inbox", input: { tag: "oat_milk", request: "When is oat milk back?", blocking: false } }] },
      { text: "I've asked; I'll let you know." },
      { text: "Good news: oat milk is back." },
    ]);
    const agent = makeAgent(store, model);
    await agent.processRequest("Do you have oat milk?");
    const [item] = await store.getInboxItems();
    expect(item?.status).toBe("pending");

    const child = spawnSync(process.execPath, [join(fixtures, "resolve-inbox.mjs"), dbPath, "cafe", item!.id, "Back in stock Tuesday."], {
      cwd: root,
      encoding: "utf8",
      timeout: 30_000,
    });
    expect(child.stderr).toBe("");
    expect(child.stdout).toBe("RESOLVED\n");

    await agent.processRequest("Any news?");
    const request = model.requests[2]!.messages;
    const injected = request.findIndex((m) => m.text.includes("Back in stock Tuesday."));
    expect(injected).toBeGreaterThan(-1);
    expect(request.at(-1)?.text).toBe("Any news?");
    expect((await store.getInboxItems())[0]?.status).toBe("consumed");
    store.close();
  });

  it("a process killed with SIGKILL mid-tool leaves a conversation the next process continues with no orphaned tool call", async () => {
    const dbPath = join(dir, "killed.db");
    const child = spawn(process.execPath, [join(fixtures, "run-until-killed.mjs"), dbPath, "report-job"], { cwd: root, stdio: ["ignore", "pipe", "pipe"] });
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
    expect(seen[2]?.tool_results?.[0]?.result).toEqual({ status: "aborted", data: null, message: INTERRUPTED_TOOL_MESSAGE });
    expect(seen.at(-1)?.text).toBe("Did the export finish?");
    expectNoOrphanedToolCalls(await store.getMessages());
    store.close();
  });
});
