import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Message } from "glove-core";
import pg from "pg";
import { PostgresStore } from "glove-postgres";
import { buildForChildProcesses } from "../../../../test-support/child-processes.js";
import { SseClient } from "../support/sse-client.js";
import { expectValidHistory } from "../suite/server-suite.js";
import { apiOf, killAll, startInstance, type Instance } from "./support/scale-processes.js";
import { dropRedisPrefix, dropSchema, PG_URL, REDIS_URL, uniqueName } from "./support/scale-env.js";
import { PROMPT_WAIT_MS, SLOW_WORK_MS } from "../../../../test-support/timeouts.js";

const schema = uniqueName("zombie");
const prefix = uniqueName("zombie");
const wake = join(mkdtempSync(join(tmpdir(), "glove-zombie-")), "wake");
const instances: Instance[] = [];
const pool = new pg.Pool({ connectionString: PG_URL, max: 2 });

beforeAll(() => buildForChildProcesses("packages/glove-server"), SLOW_WORK_MS);
afterAll(async () => {
  killAll();
  await pool.end();
  await dropRedisPrefix(prefix);
  await dropSchema(schema);
});

async function until(what: string, check: () => boolean, ms: number): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

describe("glove-server scale mode: a worker that lost its lock and has not noticed yet", () => {
  it(
    "cannot store its answer once another worker took the turn over: one answer per user message",
    async () => {
      // A's event loop blocks during the model call, past its 1 s lock; B takes the turn over and
      // answers; then A wakes up and stores its own answer at once (before any timer could tell it
      // that it lost the lock).
      const a = await startInstance(schema, prefix, REDIS_URL, 1000, { STALL_UNTIL_FILE: wake, MODEL_DELAY_MS: "0" });
      instances.push(a);
      const api = apiOf(a.url);
      const id = (await api("/conversations", {})).body.id as string;
      const sent = await api(`/conversations/${id}/messages`, { text: "stall z1" });
      expect(sent.status).toBe(202);
      await until("A to stall", () => a.stderr().includes("STALL_START"), PROMPT_WAIT_MS);
      const b = await startInstance(schema, prefix, REDIS_URL, 1000);
      instances.push(b);
      const tab = new SseClient(`${b.url}/conversations/${id}/events`, { authorization: "Bearer alice" });
      const end = await tab.waitForEvent("turn_end", undefined, PROMPT_WAIT_MS);
      expect(end.data).toEqual({ turnId: sent.body.turnId, status: "done" });
      if (process.env.GLOVE_SCALE_ENGINE === "owner") {
        // B takes the conversation over with the tab's request: the tab's snapshot shows A's turn running.
        expect((tab.events[0]!.data as { turnId: string }).turnId).toBe(sent.body.turnId);
      } else expect(tab.events.some((e) => e.event === "turn_resumed")).toBe(true);
      expect(a.stderr()).not.toContain("STALL_END");
      writeFileSync(wake, ""); // B is done: A wakes up
      await until("A to wake up", () => a.stderr().includes("STALL_END"), PROMPT_WAIT_MS);
      // A's append is issued right after it wakes; give it time to land (or be refused).
      await new Promise((resolve) => setTimeout(resolve, 1500));
      // Read PostgreSQL itself: a snapshot shows only what the stream announced.
      const store = await PostgresStore.open({ pool, schema, sessionId: id });
      const history = await store.getMessages();
      expectValidHistory(history);
      expect(history.map((m) => [m.sender, m.text])).toEqual([
        ["user", "stall z1"],
        ["agent", "echo: stall z1"],
      ]);
      // The conversation is free: the next message runs normally.
      const next = await apiOf(b.url)(`/conversations/${id}/messages`, { text: "after" });
      expect(next.status).toBe(202);
      await tab.waitForEvent("turn_end", (d) => d.turnId === next.body.turnId, PROMPT_WAIT_MS);
      const final = (await apiOf(b.url)(`/conversations/${id}`)).body.messages as Message[];
      expect(final.map((m) => m.text)).toEqual(["stall z1", "echo: stall z1", "after", "echo: after"]);
      await tab.close();
    },
    SLOW_WORK_MS,
  );
});
