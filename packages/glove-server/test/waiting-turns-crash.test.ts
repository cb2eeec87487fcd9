/**
 * Questions that outlive a killed server: a glove-server in a child process (SQLite file or
 * PostgreSQL schema) runs a tool that takes a deposit (a recorded step), then asks for the
 * guest's name. The process is killed with SIGKILL while the question waits; servers started
 * again on the same storage list the question in the snapshot (not busy, nothing answered as
 * interrupted); an answer over HTTP resumes the turn, which finishes — the deposit and the
 * booking each happened once, and the history is valid.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Message } from "glove-core";
import { sqliteStorage, type ServerStorage } from "glove-server";
import { postgresStorage } from "glove-server/postgres";
import type { TurnTrace } from "../src/storage/inspect/types.js";
import { buildForChildProcesses } from "../../../test-support/child-processes.js";
import { SLOW_WORK_MS } from "../../../test-support/timeouts.js";
import { api, killServerProcesses, serverProcess } from "./support/server-process.js";
import { SseClient } from "./support/sse-client.js";
import { expectValidHistory } from "./suite/server-suite.js";

const PG_URL = process.env.GLOVE_PG_URL ?? "postgres://postgres@127.0.0.1:5432/test";
const dir = mkdtempSync(join(tmpdir(), "glove-server-waiting-crash-"));
const schemas: string[] = [];
let pool: pg.Pool | undefined;

beforeAll(() => buildForChildProcesses("packages/glove-server"), SLOW_WORK_MS);
afterAll(async () => {
  killServerProcesses();
  rmSync(dir, { recursive: true, force: true });
  if (!pool) return;
  for (const schema of schemas) await pool.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
  await pool.end();
}, SLOW_WORK_MS);

const auth = { authorization: "Bearer alice" };
const BOOKED = "success: Chez Ada for Grace (deposit-1)";

interface Snapshot {
  busy: boolean;
  turnId: string | null;
  messages: Message[];
  slots: Array<Record<string, unknown>>;
}

/** The snapshot of a conversation whose turn waits for the question `slotId`, after a restart. */
async function expectStillWaiting(url: string, id: string, slotId: string): Promise<void> {
  const response = await api(url, `/conversations/${id}`);
  expect(response.status).toBe(200);
  const snapshot = response.body as Snapshot;
  expect(snapshot.busy).toBe(false);
  expect(snapshot.turnId).toBeNull();
  expect(snapshot.slots).toEqual([
    expect.objectContaining({
      id: slotId,
      renderer: "book_table",
      toolName: "book_table",
      toolCallId: "call-book-1",
      input: { restaurant: "Chez Ada" },
      mode: "wait",
      status: "pending",
    }),
  ]);
  // The call still waits: the restart did not answer it as interrupted.
  expect(snapshot.messages.flatMap((m) => m.tool_results ?? [])).toEqual([]);
  expect(snapshot.messages.at(-1)?.tool_calls?.map((c) => c.id)).toEqual(["call-book-1"]);
}

/** The storage a server process opens for `spec` (a SQLite file, or postgres://…#schema), opened here to read. */
function openStorage(spec: string): ServerStorage {
  if (!spec.startsWith("postgres")) return sqliteStorage({ path: spec });
  const [connectionString, schema] = spec.split("#");
  return postgresStorage({ connectionString: connectionString!, schema: schema! });
}

/** The conversation's stored traces, oldest first. */
async function traces(storage: ServerStorage, id: string): Promise<TurnTrace[]> {
  return (await storage.inspect!.traces.list(id, { limit: 10 })).reverse();
}

/** Waits until the running turn's stored trace holds its finished model call (saved every few seconds). */
async function modelCallSaved(storage: ServerStorage, id: string): Promise<void> {
  for (;;) {
    const [trace] = await traces(storage, id);
    if (trace?.spans.some((s) => s.kind === "model_call" && s.status === "ok")) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Asked, killed `restarts` times in all while the question waits, then answered over HTTP. */
async function killedWhileWaitingThenAnswered(storage: string, effectsFile: string, restarts: number): Promise<void> {
  writeFileSync(effectsFile, "");
  // 1. The server that asks is killed while the question waits.
  const first = await serverProcess(storage, "durable", effectsFile);
  const id = (await api(first.url, "/conversations", {})).body.id as string;
  const watcher = new SseClient(`${first.url}/conversations/${id}/events`, auth);
  await watcher.waitForEvent("snapshot");
  expect((await api(first.url, `/conversations/${id}/messages`, { text: "Book a table at Chez Ada." })).status).toBe(
    202,
  );
  // A question is stored before it is shown: once pushed, it outlives the process.
  const pushed = await watcher.waitForEvent("slot_push");
  const slotId = (pushed.data as { slot: { id: string } }).slot.id;
  const reader = openStorage(storage);
  // Killed once the trace recorded the model call that asked (a trace is saved every few seconds).
  await modelCallSaved(reader, id);
  expect(await first.kill()).toBe("SIGKILL");
  await watcher.close();
  expect(readFileSync(effectsFile, "utf8")).toBe("deposit\n");

  // 2. Servers that start on the same storage, show the question, and are killed too.
  for (let i = 1; i < restarts; i++) {
    const next = await serverProcess(storage, "durable", effectsFile);
    await expectStillWaiting(next.url, id, slotId);
    expect(await next.kill()).toBe("SIGKILL");
  }

  // 3. The last server takes the answer over HTTP: the turn resumes there and finishes.
  const last = await serverProcess(storage, "durable", effectsFile);
  await expectStillWaiting(last.url, id, slotId);
  const tab = new SseClient(`${last.url}/conversations/${id}/events`, auth);
  await tab.waitForEvent("snapshot");
  const answered = await api(last.url, `/conversations/${id}/slots/${slotId}`, { resolve: { name: "Grace" } });
  expect(answered.status).toBe(200);
  expect(answered.body).toMatchObject({ slotId, status: "resolved", turnId: expect.any(String) });
  const end = await tab.waitForEvent("turn_end", (data) => data.turnId === answered.body.turnId);
  expect(end.data).toMatchObject({ status: "done" });
  const types = tab.events.map((e) => e.event);
  expect(types.indexOf("turn_start")).toBeGreaterThan(-1);
  expect(types.indexOf("turn_start")).toBeLessThan(types.indexOf("turn_resumed"));
  expect(tab.events.find((e) => e.event === "turn_resumed")?.data).toMatchObject({
    turnId: answered.body.turnId,
    slotId,
    toolCallId: "call-book-1",
  });
  // Met its recorded answer: the question is not shown again; a client showing it sees it answered.
  expect(types).not.toContain("slot_push");
  expect(tab.events.filter((e) => e.event === "slot_settled").map((e) => e.data)).toEqual([
    { slotId, status: "resolved" },
  ]);
  await tab.close();

  // The deposit ran once (before the first kill), the booking once (after the answer).
  expect(readFileSync(effectsFile, "utf8")).toBe("deposit\nbooked Grace\n");
  const after = (await api(last.url, `/conversations/${id}`)).body as Snapshot;
  expect(after.busy).toBe(false);
  expect(after.slots).toEqual([]);
  expectValidHistory(after.messages);
  expect(
    after.messages.flatMap((m) => m.tool_results ?? []).map((r) => [r.call_id, r.result.status, r.result.data]),
  ).toEqual([["call-book-1", "success", "Chez Ada for Grace (deposit-1)"]]);
  expect(after.messages.at(-1)).toMatchObject({ sender: "agent", text: BOOKED });
  expect(after.messages.filter((m) => m.sender === "agent" && m.text === BOOKED)).toHaveLength(1);
  // The books: both model calls are counted (the killed turn's too), and no span runs for ever —
  // the killed turn's trace waited, its call went on in the answered turn.
  expect((after as Snapshot & { stats: { turns: number } }).stats.turns).toBe(2);
  const [asked, resumed, ...more] = await traces(reader, id);
  expect(more).toEqual([]);
  expect(asked).toMatchObject({ status: "waiting" });
  expect(resumed).toMatchObject({ turnId: answered.body.turnId, status: "completed" });
  expect([...asked!.spans, ...resumed!.spans].filter((s) => s.status === "running")).toEqual([]);
  expect(asked!.spans.find((s) => s.kind === "tool_call")).toMatchObject({
    status: "ok",
    attributes: { "gen_ai.tool.call.id": "call-book-1", "glove.continued_in": answered.body.turnId },
  });
  expect([...asked!.spans, ...resumed!.spans].filter((s) => s.kind === "model_call").map((s) => s.status)).toEqual([
    "ok",
    "ok",
  ]);
  await reader.close?.();

  // The first answer won: a second one is refused.
  expect((await api(last.url, `/conversations/${id}/slots/${slotId}`, { resolve: { name: "Ada" } })).status).toBe(409);
  expect(readFileSync(effectsFile, "utf8")).toBe("deposit\nbooked Grace\n");
  await last.kill();
}

const RESTARTS = [
  ["killed once, answered by the next server", 1],
  ["killed, restarted and killed again, then answered", 2],
] as const;

describe("a waiting turn outlives a server killed with SIGKILL (SQLite file)", () => {
  it.each(RESTARTS)("%s", { timeout: SLOW_WORK_MS }, async (_label, restarts) => {
    await killedWhileWaitingThenAnswered(
      join(dir, `waiting-${restarts}.db`),
      join(dir, `effects-sqlite-${restarts}.txt`),
      restarts,
    );
  });
});

describe("a waiting turn outlives a server killed with SIGKILL (PostgreSQL)", () => {
  it.each(RESTARTS)("%s", { timeout: SLOW_WORK_MS }, async (_label, restarts) => {
    pool ??= new pg.Pool({ connectionString: PG_URL, max: 2 });
    const schema = `glove_server_wait_${process.pid}_${schemas.length}_${Math.random().toString(36).slice(2, 7)}`;
    schemas.push(schema);
    await killedWhileWaitingThenAnswered(`${PG_URL}#${schema}`, join(dir, `effects-pg-${restarts}.txt`), restarts);
  });
});
