/**
 * What every storage does with a trace's recorded calls, whoever wrote it: kept as given, dropped
 * when the storage opted out of the request log, cut to timing past the per-turn bound. Memory,
 * SQLite and PostgreSQL, through each storage's own trace store.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { memoryStorage, sqliteStorage, type ServerStorage } from "glove-server";
import { postgresStorage } from "glove-server/postgres";
import type { RecordedCall } from "../../src/storage/inspect/recorded-calls.js";
import { traceLimits, type TraceLimits } from "../../src/storage/inspect/trace-limits.js";
import type { TurnTrace } from "../../src/storage/inspect/types.js";
import { testSqliteDriver } from "../../../../test-support/sqlite-driver.js";

const PG_URL = process.env.GLOVE_PG_URL ?? "postgres://postgres@127.0.0.1:5432/test";
const dir = mkdtempSync(join(tmpdir(), "glove-request-log-"));
const pool = new pg.Pool({ connectionString: PG_URL, max: 4 });
const schemas: string[] = [];
afterAll(async () => {
  for (const schema of schemas) await pool.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  await pool.end();
  rmSync(dir, { recursive: true, force: true });
});

const storages: Array<[string, (traces: Partial<TraceLimits>) => ServerStorage]> = [
  ["memory", (traces) => memoryStorage({ traces })],
  ["SQLite", (traces) => sqliteStorage({ path: join(dir, `${Math.random()}.db`), driver: testSqliteDriver, traces })],
  [
    "PostgreSQL",
    (traces) => {
      const schema = `glove_rl_${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
      schemas.push(schema);
      return postgresStorage({ pool, schema, traces });
    },
  ],
];

const call = (n: number, chars: number): RecordedCall => ({
  callId: `mc_${n}`,
  adapter: "openai",
  startedAt: 1000 + n,
  endedAt: 2000 + n,
  contextMessages: n,
  attempts: [{ attempt: 0, startMs: 1000 + n, endMs: 2000 + n, outcome: "ok" }],
  request: {
    form: "wire",
    keep: 0,
    added: [{ role: "user", content: "x".repeat(chars) }],
    count: 1,
    marks: [[1, "h"]],
  },
  answer: { text: "secret answer", finishReason: "stop", usage: { tokens_in: 5, tokens_out: 1 } },
});

const trace = (calls: RecordedCall[]): TurnTrace => ({
  conversationId: "c1",
  turnId: "t1",
  startedAt: new Date().toISOString(),
  endedAt: null,
  status: "running",
  spans: [],
  truncated: false,
  calls,
});

describe.each(storages)("recorded calls on %s", (_name, open) => {
  it("are kept as saved, and the store says its limits", async () => {
    const storage = open({});
    const traces = storage.inspect!.traces;
    expect(traces.limits).toEqual(traceLimits({}));
    await traces.save(trace([call(1, 10), call(2, 10)]));
    expect((await traces.get("c1", "t1"))?.calls).toEqual([call(1, 10), call(2, 10)]);
    await storage.close?.();
  });

  it("are dropped when the storage keeps no request log", async () => {
    const storage = open({ requestLog: false });
    await storage.inspect!.traces.save(trace([call(1, 10)]));
    const stored = await storage.inspect!.traces.get("c1", "t1");
    expect(stored).toBeDefined();
    expect(stored!.calls).toBeUndefined();
    expect(JSON.stringify(stored)).not.toContain("secret answer");
    await storage.close?.();
  });

  it("keep only their timing past the per-turn bound", async () => {
    const storage = open({ requestCharsPerTurn: 5_000 });
    await storage.inspect!.traces.save(trace([call(1, 3_000), call(2, 3_000), call(3, 10)]));
    const [first, second, third] = (await storage.inspect!.traces.get("c1", "t1"))!.calls!;
    expect(first).toEqual(call(1, 3_000));
    for (const [clipped, n] of [
      [second, 2],
      [third, 3],
    ] as const) {
      expect(clipped).toMatchObject({ callId: `mc_${n}`, clipped: true, endedAt: 2000 + n });
      expect(clipped!.request.added).toEqual([]);
      expect(clipped!.answer).toEqual({ finishReason: "stop", usage: { tokens_in: 5, tokens_out: 1 } });
    }
    await storage.close?.();
  });
});

describe("trace limits", () => {
  it("refuse a request log that is not a boolean, and a bound that is not a positive integer", () => {
    expect(() => traceLimits({ requestLog: "no" as unknown as boolean })).toThrow(/requestLog must be true or false/);
    expect(() => traceLimits({ requestCharsPerTurn: 0 })).toThrow(/requestCharsPerTurn must be a positive integer/);
  });
});
