/**
 * A resume replayed after a server restart, driven by the official HttpAgent against a
 * glove-server in a child process on a SQLite file. The run ends on Glove's permission prompt;
 * the process is killed with SIGKILL and started again on the same file. HttpAgent keeps an
 * interrupt pending until a run succeeds and sends the resume again with every run, so a page
 * whose first resume response was lost resends it: the replay succeeds and the tool runs once.
 * Two identical resumes at once are an answer and its replay. Every event is validated against
 * `@ag-ui/core`'s schemas.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { HttpAgent, HttpAgentFetchFn } from "@ag-ui/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Message } from "glove-core";
import { buildForChildProcesses } from "../../../../../test-support/child-processes.js";
import { SLOW_WORK_MS } from "../../../../../test-support/timeouts.js";
import { api, killServerProcesses, serverProcess } from "../../support/server-process.js";
import { expectValidHistory } from "../../suite/server-suite.js";
import { agUiAgent, runOnce, say } from "./support/ag-ui-client.js";

const dir = mkdtempSync(join(tmpdir(), "glove-ag-ui-replay-"));

beforeAll(() => buildForChildProcesses("packages/glove-server"), SLOW_WORK_MS);
afterAll(() => {
  killServerProcesses();
  rmSync(dir, { recursive: true, force: true });
});

const DONE = "success: deleted notes.txt";

/** A server process in "permission" mode on `db`: every turn asks to delete notes.txt. */
async function permissionServer(db: string, effects: string) {
  return serverProcess(db, "permission", effects);
}

const agentOn = (url: string) => agUiAgent({ url });

/** Points the page's agent at the restarted server (same thread, messages and pending interrupts). */
function moveTo(agent: HttpAgent, url: string): void {
  agent.url = `${url}/ag-ui`;
}

/** Asks for the deletion, gets the permission prompt as an interrupt, and kills the server. */
async function interruptedThenKilled(db: string, effects: string): Promise<{ agent: HttpAgent; interruptId: string }> {
  writeFileSync(effects, "");
  const first = await permissionServer(db, effects);
  const agent = agentOn(first.url);
  const asked = await say(agent, "Delete notes.txt");
  expect(asked.error).toBeUndefined();
  expect(asked.outcome).toBe("interrupt");
  expect(asked.interrupts).toEqual([expect.objectContaining({ reason: "tool_call", toolCallId: "del-1" })]);
  expect(await first.kill()).toBe("SIGKILL");
  expect(readFileSync(effects, "utf8")).toBe("");
  return { agent, interruptId: asked.interrupts[0]!.id };
}

const approve = (interruptId: string) => ({
  resume: [{ interruptId, status: "resolved" as const, payload: { approved: true } }],
});

async function expectDeletedOnce(url: string, threadId: string, effects: string): Promise<void> {
  expect(readFileSync(effects, "utf8")).toBe("deleted notes.txt\n");
  const snapshot = (await api(url, `/conversations/${threadId}`)).body as { messages: Message[]; slots: unknown[] };
  expectValidHistory(snapshot.messages);
  expect(snapshot.messages.flatMap((m) => m.tool_results ?? []).map((r) => r.call_id)).toEqual(["del-1"]);
  expect(snapshot.messages.filter((m) => m.text === DONE)).toHaveLength(1);
  expect(snapshot.slots).toEqual([]);
}

describe("AG-UI resume replayed after a restart (SQLite, SIGKILL)", () => {
  it(
    "a page whose resume response was lost sends it again: 200, the tool ran once; again after another restart",
    { timeout: SLOW_WORK_MS },
    async () => {
      const db = join(dir, "lost.db");
      const effects = join(dir, "lost.txt");
      const { agent, interruptId } = await interruptedThenKilled(db, effects);

      const second = await permissionServer(db, effects);
      moveTo(agent, second.url);
      // The first resume reaches the server and is applied; its response never reaches the page.
      const realFetch = agent.fetch;
      let lose = true;
      const losingFetch: HttpAgentFetchFn = async (url, init) => {
        const response = await realFetch(url, init);
        if (!lose) return response;
        lose = false;
        await response.text(); // the whole run happened on the server
        throw new TypeError("fetch failed: the connection dropped before the answer arrived");
      };
      agent.fetch = losingFetch;
      const lost = await runOnce(agent, approve(interruptId));
      expect(String(lost.error)).toMatch(/connection dropped/);
      expect(readFileSync(effects, "utf8")).toBe("deleted notes.txt\n");
      // HttpAgent still holds the interrupt, and refuses to run without answering it.
      expect(agent.pendingInterrupts.map((i) => i.id)).toEqual([interruptId]);

      const replay = await runOnce(agent, approve(interruptId));
      expect(replay.error).toBeUndefined();
      expect(replay.outcome).toBe("success");
      expect(agent.pendingInterrupts).toEqual([]);
      await expectDeletedOnce(second.url, agent.threadId, effects);

      // Killed again: the answer's record is in the file, so a replay still answers 200.
      expect(await second.kill()).toBe("SIGKILL");
      const third = await permissionServer(db, effects);
      moveTo(agent, third.url);
      const again = await runOnce(agent, approve(interruptId));
      expect(again.error).toBeUndefined();
      expect(again.outcome).toBe("success");
      await expectDeletedOnce(third.url, agent.threadId, effects);
      // The page's view: the question, the tool's result and the answer, once each.
      expect(agent.messages.filter((m) => m.role === "assistant" && m.content === DONE)).toHaveLength(1);
      await third.kill();
    },
  );

  it(
    "two identical resumes at once after a restart: both runs succeed, the tool runs once",
    { timeout: SLOW_WORK_MS },
    async () => {
      const db = join(dir, "race.db");
      const effects = join(dir, "race.txt");
      const { agent, interruptId } = await interruptedThenKilled(db, effects);
      const second = await permissionServer(db, effects);
      // Two tabs of the page (or a page and its retry) send the same answer at once.
      const tabs = [agent, agentOn(second.url)];
      moveTo(agent, second.url);
      tabs[1]!.threadId = agent.threadId;
      tabs[1]!.setMessages(structuredClone(agent.messages));
      const runs = await Promise.all(tabs.map((tab) => runOnce(tab, approve(interruptId))));
      for (const run of runs) {
        expect(run.error).toBeUndefined();
        expect(run.outcome).toBe("success");
      }
      await expectDeletedOnce(second.url, agent.threadId, effects);
      await second.kill();
    },
  );
});
