import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { MemoryStore, type StoreAdapter } from "glove-core";
import { PostgresStore } from "glove-postgres";
import { SqliteStore } from "glove-sqlite";
import { ask, conversationAgent } from "./conversation.js";

/**
 * Grows one conversation to BENCH_MESSAGES (10 000) messages through the real Glove loop, with
 * compaction every 40 model turns, and at every BENCH_CHECKPOINT (1 000) messages times what a
 * turn has to load: the model's view (`getMessagesSinceLastCompaction`), a whole request on a
 * fresh Glove (cold Context, as a new process), a warm request, and — for contrast — the full
 * history (`getMessages`).
 */
const TOTAL = Number(process.env.BENCH_MESSAGES ?? 10_000);
const CHECKPOINT = Number(process.env.BENCH_CHECKPOINT ?? 1_000);
const REPS = Number(process.env.BENCH_REPS ?? 15);
const COLD_REPS = Number(process.env.BENCH_COLD_REPS ?? 9);
const STORES = (process.env.BENCH_STORES ?? "memory,sqlite,postgres").split(",");
/** Checkpoints wait until the model's view holds at least this many messages (compaction cycle ≈ 80). */
const VIEW_AT = Number(process.env.BENCH_VIEW_AT ?? 60);
const PG_URL = process.env.GLOVE_PG_URL ?? "postgres://postgres@127.0.0.1:5432/test";

interface Row {
  messages: number;
  view: number;
  viewMs: number;
  coldRequestMs: number;
  warmRequestMs: number;
  fullMs: number;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

async function time(fn: () => Promise<unknown>, reps: number): Promise<number> {
  const samples: number[] = [];
  for (let i = 0; i < reps; i++) {
    const t0 = performance.now();
    await fn();
    samples.push(performance.now() - t0);
  }
  return median(samples);
}

async function runStore(name: string, store: StoreAdapter): Promise<Row[]> {
  const { agent, model } = conversationAgent(store);
  const rows: Row[] = [];
  let n = 0;
  let next = CHECKPOINT;
  let warm: number[] = [];
  while ((await store.messageCount!()) < TOTAL) {
    const t0 = performance.now();
    await ask(agent, model, n++);
    warm.push(performance.now() - t0);
    const count = await store.messageCount!();
    if (count < next && count < TOTAL) continue;
    // Same point of the compaction cycle at every checkpoint (the view grows 4 messages a request
    // from the summary), so rows compare like with like.
    const view = (await store.getMessagesSinceLastCompaction!()).length;
    if (view < VIEW_AT && count < TOTAL) continue;
    next += CHECKPOINT;
    const viewMs = await time(() => store.getMessagesSinceLastCompaction!(), REPS);
    const fullMs = await time(() => store.getMessages(), Math.max(3, REPS >> 2));
    // A new Glove has a cold Context: its first request loads the view from the store.
    const coldRequestMs = await time(async () => {
      const fresh = conversationAgent(store);
      await ask(fresh.agent, fresh.model, n++);
    }, COLD_REPS);
    rows.push({ messages: count, view, viewMs, coldRequestMs, warmRequestMs: median(warm.slice(-50)), fullMs });
    warm = [];
    process.stderr.write(`${name}: ${count} messages\n`);
  }
  return rows;
}

function table(name: string, rows: Row[]): string {
  const first = rows[0]!;
  const lines = [
    `#### ${name}`,
    "",
    "| messages | view (msgs) | load view ms | cold request ms | warm request ms | full history ms | view growth | cold growth |",
    "|---:|---:|---:|---:|---:|---:|---:|---:|",
    ...rows.map(
      (r) =>
        `| ${r.messages} | ${r.view} | ${r.viewMs.toFixed(3)} | ${r.coldRequestMs.toFixed(2)} | ${r.warmRequestMs.toFixed(2)} | ${r.fullMs.toFixed(2)} | ` +
        `${(r.viewMs / first.viewMs).toFixed(2)}× | ${(r.coldRequestMs / first.coldRequestMs).toFixed(2)}× |`,
    ),
  ];
  return lines.join("\n");
}

const dir = mkdtempSync(join(tmpdir(), "glove-store-load-"));
const schema = `bench_store_load_${process.pid}`;
const out: string[] = [];
try {
  for (const name of STORES) {
    if (name === "memory") out.push(table("MemoryStore", await runStore(name, new MemoryStore("bench"))));
    if (name === "sqlite") {
      const store = new SqliteStore({ dbPath: join(dir, "bench.db"), sessionId: "bench" });
      out.push(table("SqliteStore (file, WAL)", await runStore(name, store)));
      store.close();
    }
    if (name === "postgres") {
      const pool = new pg.Pool({ connectionString: PG_URL });
      try {
        await pool.query("SELECT 1");
      } catch (error) {
        out.push(`#### PostgresStore\n\nskipped: no PostgreSQL at ${PG_URL} (${(error as Error).message}).`);
        await pool.end();
        continue;
      }
      try {
        const store = await PostgresStore.open({ pool, schema, sessionId: "bench" });
        out.push(table("PostgresStore (local server)", await runStore(name, store)));
      } finally {
        await pool.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
        await pool.end();
      }
    }
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
console.log(
  `store-load: ${TOTAL} messages, compaction every 40 model turns, medians of ${REPS} reads / ${COLD_REPS} cold requests / the last 50 warm requests\n`,
);
console.log(out.join("\n\n"));
