import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Message } from "glove-core";
import { openInspector, sqliteStorage } from "glove-server";
import { buildForChildProcesses, expectNodeOutput } from "../../../test-support/child-processes.js";
import { startServer } from "./support/harness.js";
import { api, killServerProcesses, serverProcess } from "./support/server-process.js";
import { SseClient } from "./support/sse-client.js";
import { expectValidHistory } from "./suite/server-suite.js";
import { PROMPT_WAIT_MS, SLOW_WORK_MS } from "../../../test-support/timeouts.js";

const sqliteFixtures = fileURLToPath(new URL("../../glove-sqlite/test/fixtures/", import.meta.url));
const dir = mkdtempSync(join(tmpdir(), "glove-server-xproc-"));
beforeAll(() => buildForChildProcesses("packages/glove-server"), SLOW_WORK_MS);
afterAll(() => {
  killServerProcesses();
  rmSync(dir, { recursive: true, force: true });
});

describe("glove-server across processes", () => {
  it("a server killed with SIGKILL mid-turn restarts on the same SQLite file: history valid, next message works", async () => {
    const dbPath = join(dir, "crash.db");
    const first = await serverProcess(dbPath, "hang");
    const id = (await api(first.url, "/conversations", {})).body.id as string;
    const watcher = new SseClient(`${first.url}/conversations/${id}/events`, { authorization: "Bearer alice" });
    await watcher.waitForEvent("snapshot");
    const { turnId } = (await api(first.url, `/conversations/${id}/messages`, { text: "start something long" }))
      .body as { turnId: string };
    await first.toolRunning;
    await watcher.waitForEvent("tool_use");
    // A running turn's trace is saved within a few seconds (a live view sees it): wait for that.
    const live = await openInspector({ sqlite: dbPath });
    for (const deadline = Date.now() + PROMPT_WAIT_MS; !(await live.traces.get(id, turnId)) && Date.now() < deadline;)
      await new Promise((r) => setTimeout(r, 50));
    await live.close();
    const lastSeen = watcher.lastId!;
    expect(await first.kill()).toBe("SIGKILL");
    await watcher.close();

    const second = await serverProcess(dbPath, "answer");
    // The old stream position belongs to the dead process: the client gets a snapshot, never a gap.
    const resumed = new SseClient(`${second.url}/conversations/${id}/events`, {
      authorization: "Bearer alice",
      "last-event-id": String(lastSeen),
    });
    const snapshot = await resumed.waitForEvent("snapshot");
    expect(snapshot.id!).toBeGreaterThan(lastSeen);
    const state = snapshot.data as { busy: boolean; messages: Message[] };
    expect(state.busy).toBe(false);
    expectValidHistory(state.messages);
    expect(state.messages.at(-1)?.tool_results?.[0]?.result.status).toBe("aborted");
    // The dead turn's trace is ended as interrupted, nothing left running.
    const inspector = await openInspector({ sqlite: dbPath });
    const trace = await inspector.traces.get(id, turnId);
    await inspector.close();
    expect(trace).toMatchObject({ status: "interrupted", endedAt: expect.any(String) });
    expect(trace?.spans.filter((span) => span.status === "running")).toEqual([]);

    expect((await api(second.url, `/conversations/${id}/messages`, { text: "are you back?" })).status).toBe(202);
    const end = await resumed.waitForEvent("turn_end");
    expect(end.data).toMatchObject({ status: "done" });
    const after = (await api(second.url, `/conversations/${id}`)).body as { messages: Message[] };
    expectValidHistory(after.messages);
    expect(after.messages.at(-1)?.text).toBe("Recovered after the restart.");
    await resumed.close();
    await second.kill();
  });

  it("an inbox item resolved by another process reaches an open stream without a new message", async () => {
    const dbPath = join(dir, "inbox.db");
    const s = await startServer({
      store: sqliteStorage({ path: dbPath }),
      events: { inboxPollMs: 50 },
      kit: {
        script: [
          {
            toolCalls: [
              { name: "glove_post_to_inbox", input: { tag: "restock", request: "When is oat milk back?" }, id: "p1" },
            ],
          },
          { text: "I asked." },
        ],
      },
    });
    try {
      const id = await s.conversation();
      const tab = s.events(id);
      await tab.waitForEvent("snapshot");
      await s.api(`/conversations/${id}/messages`, { body: { text: "oat milk?" } });
      const posted = await tab.waitForEvent("inbox");
      const item = (posted.data as { items: Array<{ id: string; status: string }> }).items[0]!;
      expect(item.status).toBe("pending");
      await tab.waitForEvent("turn_end");
      expectNodeOutput(
        join(sqliteFixtures, "resolve-inbox.mjs"),
        [dbPath, id, item.id, "Back on Tuesday."],
        "RESOLVED\n",
        SLOW_WORK_MS,
      );
      const resolved = await tab.waitForEvent(
        "inbox",
        (d) => (d.items as Array<{ status: string }>)[0]?.status === "resolved",
      );
      expect((resolved.data as { items: Array<{ response: string }> }).items[0]!.response).toBe("Back on Tuesday.");
    } finally {
      await s.close();
    }
  });
});
